import { beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_RETENTION_DAYS } from '../../lambdas/domain/erasure/retention-period.js';
import { RETENTION_TIMEOUT } from '../../lib/retention.js';
import {
  actionsOf,
  type CfnResource,
  flatten,
  ownFunctions,
  type Statement,
  statementsOf,
  synthStack,
} from './template.js';

/** Redaction and retention on AWS (docs/internals/data-retention.md): the hourly worker, who may delete what, and the lifecycle backstop. */
let resources: Record<string, CfnResource>;
let functions: ReturnType<typeof ownFunctions>;

beforeAll(() => {
  resources = synthStack().resources;
  functions = ownFunctions(resources);
});

const statementsFor = (name: string): Statement[] => statementsOf(resources, functions.get(name)!.logicalId);
/** The bucket prefixes an action is allowed on, as `inputs`, `outputs`, `uploads`. */
const prefixesOf = (statements: Statement[], action: string) =>
  statements
    .filter((s) => actionsOf([s]).includes(action))
    .flatMap((s) => [s.Resource].flat().map(flatten))
    .map((arn) => /\/(\w+)\/\*$/.exec(arn)?.[1] ?? arn)
    .sort();

describe('the retention worker', () => {
  it('runs every hour, with a 15-minute timeout and no retry of a missed run', () => {
    const worker = functions.get('retention')!;
    expect(worker.props.Timeout).toBe(RETENTION_TIMEOUT.toSeconds());
    expect(worker.props.Handler).toBe('index.handler');
    const rules = Object.values(resources).filter(
      (r) => r.Type === 'AWS::Events::Rule' && flatten(r.Properties?.Targets).includes(worker.logicalId),
    );
    expect(rules.map((r) => [r.Properties!.ScheduleExpression, r.Properties!.State])).toEqual([
      ['rate(1 hour)', 'ENABLED'],
    ]);
    expect(rules[0]!.Properties!.Targets[0].RetryPolicy).toEqual({ MaximumRetryAttempts: 0 });
    const invoke = Object.values(resources).find(
      (r) => r.Type === 'AWS::Lambda::Permission' && flatten(r.Properties?.FunctionName).includes(worker.logicalId),
    )!;
    expect(invoke.Properties).toMatchObject({ Action: 'lambda:InvokeFunction', Principal: 'events.amazonaws.com' });
    expect(Object.keys(worker.props.Environment.Variables)).toEqual(
      expect.arrayContaining(['TABLE_NAME', 'BUCKET_NAME']),
    );
  });

  it('may read and write the table, list the bucket and delete under inputs/, uploads/ and outputs/; it reads and writes objects only under outputs/ (batch output files) and sends only to its dead-letter queue', () => {
    const statements = statementsFor('retention');
    const actions = actionsOf(statements);
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:Query',
        'dynamodb:GetItem',
        'dynamodb:UpdateItem',
        'dynamodb:PutItem',
        's3:ListBucket',
        's3:DeleteObject',
      ]),
    );
    expect(prefixesOf(statements, 's3:DeleteObject')).toEqual(['inputs', 'outputs', 'uploads']);
    expect(actions.filter((a) => a.startsWith('states:'))).toEqual([]);
    expect(prefixesOf(statements, 's3:GetObject')).toEqual(['outputs']);
    expect(prefixesOf(statements, 's3:PutObject')).toEqual(['outputs']);
    // the one message it may send is Lambda's own: a failed asynchronous run to the schedules' dead-letter queue
    const sends = statements.filter((s) => actionsOf([s]).some((a) => a.startsWith('sqs:')));
    expect(actionsOf(sends)).toEqual(['sqs:SendMessage']);
    expect(sends.map((s) => flatten(s.Resource))).toEqual([expect.stringContaining('ScheduleDeadLetterQueue')]);
  });
});

describe('who may delete objects', () => {
  it('the redaction routes as the retention worker does; the completion route only outputs/ (a late report of a redacted job); nobody else', () => {
    for (const name of ['redact-job', 'redact-organization-job']) {
      const statements = statementsFor(name);
      expect(prefixesOf(statements, 's3:DeleteObject'), name).toEqual(['inputs', 'outputs', 'uploads']);
      // a redacted job's batch output file is read and written again without its result (docs/internals/batches.md)
      expect(prefixesOf(statements, 's3:GetObject'), name).toEqual(['outputs']);
      expect(prefixesOf(statements, 's3:PutObject'), name).toEqual(['outputs']);
      expect(actionsOf(statements), name).toContain('s3:ListBucket');
    }
    expect(prefixesOf(statementsFor('receive-completion'), 's3:DeleteObject')).toEqual(['outputs']);
    const deleters = [...functions.keys()]
      .filter((name) => actionsOf(statementsFor(name)).some((a) => a.startsWith('s3:Delete')))
      .sort();
    expect(deleters).toEqual(['receive-completion', 'redact-job', 'redact-organization-job', 'retention']);
  });
});

describe('the bucket lifecycle', () => {
  it('expires every prefix at the longest storage retention an organisation can have, as a backstop', () => {
    const bucket = Object.values(resources).find(
      (r) => r.Type === 'AWS::S3::Bucket' && (r.Properties?.LifecycleConfiguration?.Rules?.length ?? 0) > 1,
    )!;
    const rules = bucket.Properties!.LifecycleConfiguration.Rules as { Prefix?: string; ExpirationInDays?: number }[];
    expect(rules.filter((r) => r.Prefix).map((r) => [r.Prefix, r.ExpirationInDays])).toEqual([
      ['inputs/', STORAGE_RETENTION_DAYS.max],
      ['uploads/', STORAGE_RETENTION_DAYS.max],
      ['outputs/', STORAGE_RETENTION_DAYS.max],
    ]);
  });
});
