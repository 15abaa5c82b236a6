import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_DEFINITION } from '../../lambdas/adapters/dynamodb/table-definition.js';
import type { WorkLane } from '../../lambdas/domain/ports/jobs.js';
import { QUEUE_CONCURRENCY } from '../../lib/concurrency.js';
import { jobStreamPipe, WORK_MESSAGE_TEMPLATE } from '../../lib/job-stream-definition.js';
import { actionsOf, type CfnResource, flatten, ownFunctions, synthStack } from './template.js';

let template: Template;
let resources: Record<string, CfnResource>;

beforeAll(() => {
  ({ template, resources } = synthStack());
});

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const queueId = (name: string) =>
  ofType('AWS::SQS::Queue').find(([id]) => new RegExp(`^Queues${name}[0-9A-F]{8}$`).test(id))![0];

describe('admitted jobs reach the work queues through the table stream, off the request path', () => {
  it('the table streams new images', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
  });

  it('one pipe per lane sends { job_id } of each inserted job item of that lane to that lane’s queue', () => {
    const pipes = ofType('AWS::Pipes::Pipe');
    expect(pipes).toHaveLength(2);
    const tableId = ofType('AWS::DynamoDB::Table')[0]![0];
    const byLane = new Map(
      pipes.map(([, pipe]) => {
        const pattern = JSON.parse(pipe.Properties!.SourceParameters.FilterCriteria.Filters[0].Pattern);
        return [pattern.dynamodb.NewImage[TABLE_DEFINITION.jobLaneAttribute].S[0] as string, { pipe, pattern }];
      }),
    );
    expect([...byLane.keys()].sort()).toEqual(['fast', 'standard']);
    for (const [lane, { pipe, pattern }] of byLane) {
      expect(pattern.eventName).toEqual(['INSERT']);
      expect(pattern.dynamodb.NewImage.pk).toEqual({ S: [{ prefix: 'JOB#' }] });
      expect(pipe.Properties!.Source).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
      // the definition the local runtime and the unit tests run (local/job-stream.ts)
      const definition = jobStreamPipe(lane as WorkLane);
      expect(pattern).toEqual(definition.filterPattern);
      expect(pipe.Properties!.SourceParameters.DynamoDBStreamParameters).toEqual({
        StartingPosition: definition.startingPosition,
        BatchSize: definition.batchSize,
        MaximumBatchingWindowInSeconds: definition.maximumBatchingWindowInSeconds,
        MaximumRetryAttempts: definition.maximumRetryAttempts,
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueId('StreamDeadLetterQueue'), 'Arn'] } },
      });
      expect(pipe.Properties!.Target).toEqual({
        'Fn::GetAtt': [queueId(lane === 'fast' ? 'FastWorkQueue' : 'WorkQueue'), 'Arn'],
      });
      expect(pipe.Properties!.TargetParameters.InputTemplate).toBe(WORK_MESSAGE_TEMPLATE);
    }
  });

  it('the pipes’ role reads the stream and sends to the two work queues, nothing else', () => {
    const roleId = (ofType('AWS::Pipes::Pipe')[0]![1].Properties!.RoleArn as { 'Fn::GetAtt': [string, string] })[
      'Fn::GetAtt'
    ][0];
    const policies = ofType('AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Properties!.Roles).includes(roleId));
    const statements = policies.flatMap(([, p]) => p.Properties!.PolicyDocument.Statement);
    expect([...new Set(actionsOf(statements))].sort()).toEqual(
      [
        'dynamodb:DescribeStream',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:ListStreams',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:SendMessage',
      ].sort(),
    );
    const targets = statements.flatMap((s: { Resource: unknown }) => [s.Resource].flat().map(flatten)).sort();
    expect(targets.some((t: string) => t.includes('StreamArn'))).toBe(true);
    expect(targets.filter((t: string) => t.includes('WorkQueue'))).toHaveLength(2);
  });

  it('every function is told where the fast lane is, and none how to enqueue: the stream is the one path', () => {
    for (const [name, fn] of ownFunctions(resources)) {
      const env = fn.props.Environment.Variables as Record<string, unknown>;
      expect(env.ENQUEUE_ADMITTED_JOBS, name).toBeUndefined();
      expect(flatten(env.FAST_WORK_QUEUE_URL), name).toMatch(/FastWorkQueue/);
    }
  });

  it('the consumer reads both lanes, each capped, the standard lane below the fast one', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) =>
      /WorkQueue/.test(flatten(m.Properties!.EventSourceArn)),
    );
    expect(mappings).toHaveLength(2);
    const standard = mappings.find(([, m]) => flatten(m.Properties!.EventSourceArn).includes(queueId('WorkQueue')))![1];
    const fast = mappings.find(([, m]) => flatten(m.Properties!.EventSourceArn).includes(queueId('FastWorkQueue')))![1];
    expect(standard.Properties!.ScalingConfig).toEqual({ MaximumConcurrency: QUEUE_CONCURRENCY.standardLane });
    expect(fast.Properties!.ScalingConfig).toEqual({ MaximumConcurrency: QUEUE_CONCURRENCY.fastLane });
    expect(QUEUE_CONCURRENCY.standardLane).toBeLessThan(QUEUE_CONCURRENCY.fastLane);
    expect(standard.Properties!.FunctionName).toEqual(fast.Properties!.FunctionName);
  });
});
