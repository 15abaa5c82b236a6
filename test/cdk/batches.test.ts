import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { BATCH_ASL_PATH, ITEMS_PER_BATCH, MAP_MAX_CONCURRENCY } from '../../statemachines/batch.js';
import {
  actionsOf,
  type CfnResource,
  flatten,
  ownFunctions,
  type Statement,
  statementsOf,
  synthStack,
} from './template.js';

// The batch state machine on AWS (lib/batches.ts): a Distributed Map over the JSONL input file.

let resources: Record<string, CfnResource>;
let functions: ReturnType<typeof ownFunctions>;
let machine: Record<string, any>;
let definition: Record<string, any>;
let machineStatements: Statement[];

beforeAll(() => {
  ({ resources } = synthStack());
  functions = ownFunctions(resources);
  const machines = Object.values(resources).filter(
    (r) => r.Type === 'AWS::StepFunctions::StateMachine' && r.Properties?.StateMachineName === 'TestStack-batch',
  );
  expect(machines).toHaveLength(1);
  machine = machines[0]!.Properties ?? {};
  definition = JSON.parse(flatten(machine.DefinitionString));
  const roleId = machine.RoleArn['Fn::GetAtt'][0] as string;
  machineStatements = Object.values(resources)
    .filter(
      (r) =>
        r.Type === 'AWS::IAM::Policy' && (r.Properties!.Roles as { Ref: string }[]).some((role) => role.Ref === roleId),
    )
    .flatMap((r) => r.Properties!.PolicyDocument.Statement as Statement[]);
});

const resourcesFor = (statements: Statement[], action: string) =>
  statements.filter((s) => actionsOf([s]).includes(action)).flatMap((s) => [s.Resource].flat().map(flatten));
const MACHINE_ARN = /^arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:stateMachine:TestStack-batch$/;

describe('batch state machine', () => {
  it('is a STANDARD state machine whose definition is statemachines/batch.asl.json, with the batch-run worker substituted', () => {
    expect(machine.StateMachineType).toBe('STANDARD');
    expect(definition).toEqual(JSON.parse(readFileSync(BATCH_ASL_PATH, 'utf8')));
    expect(flatten(machine.DefinitionSubstitutions.BatchRunFunctionArn)).toBe(
      `<${functions.get('batch-run')!.logicalId}.Arn>`,
    );
    expect(machine.LoggingConfiguration.Level).toBe('ALL');
    expect(machine.TracingConfiguration).toEqual({ Enabled: true });
  });

  it('fans out with a Distributed Map: JSONL from S3, item batches of 40 with the batch id, MaxConcurrency for the admission ceiling', () => {
    const map = definition.States[definition.StartAt];
    expect(map.Type).toBe('Map');
    expect(map.ItemProcessor.ProcessorConfig.Mode).toBe('DISTRIBUTED');
    expect(map.ItemReader.Resource).toBe('arn:aws:states:::s3:getObject');
    expect(map.ItemReader.ReaderConfig.InputType).toBe('JSONL');
    expect(map.ItemBatcher.MaxItemsPerBatch).toBe(ITEMS_PER_BATCH);
    expect(map.ItemBatcher.BatchInput['batch_id.$']).toBe('$.batch_id');
    expect(map.ItemSelector['index.$']).toBe('$$.Map.Item.Index');
    expect(map.MaxConcurrency).toBe(MAP_MAX_CONCURRENCY);
  });

  it('may read input files (uploads), invoke its worker, and run and stop its own child executions, and nothing else', () => {
    expect(resourcesFor(machineStatements, 's3:GetObject')).toEqual([expect.stringMatching(/\/uploads\/\*$/)]);
    expect(actionsOf(machineStatements).filter((a) => a.startsWith('s3:'))).toEqual(['s3:GetObject']);
    expect(resourcesFor(machineStatements, 'lambda:InvokeFunction')).toEqual([
      `<${functions.get('batch-run')!.logicalId}.Arn>`,
    ]);
    expect(resourcesFor(machineStatements, 'states:StartExecution')).toEqual([expect.stringMatching(MACHINE_ARN)]);
    for (const action of ['states:DescribeExecution', 'states:StopExecution'])
      expect(resourcesFor(machineStatements, action), action).toEqual([
        expect.stringMatching(/:execution:TestStack-batch\/\*$/),
      ]);
  });

  it('lets the create function start runs, carrying the ARN, and no other route function', () => {
    const create = functions.get('create-batch')!;
    const statements = statementsOf(resources, create.logicalId);
    expect(actionsOf(statements).filter((a) => a.startsWith('states:'))).toEqual(['states:StartExecution']);
    expect(resourcesFor(statements, 'states:StartExecution')).toEqual([expect.stringMatching(MACHINE_ARN)]);
    expect(flatten(create.props.Environment.Variables.BATCH_STATE_MACHINE_ARN)).toMatch(MACHINE_ARN);
    for (const [name, fn] of functions) {
      if (name === 'create-batch') continue;
      expect(fn.props.Environment?.Variables?.BATCH_STATE_MACHINE_ARN, name).toBeUndefined();
    }
  });

  it('hands the batch-run worker every run that ends without succeeding, so a failure no Catch sees lets go of the lease', () => {
    const rules = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::Events::Rule' &&
        r.Properties?.EventPattern?.['detail-type']?.[0] === 'Step Functions Execution Status Change',
    );
    expect(rules).toHaveLength(1);
    const rule = rules[0]!.Properties!;
    expect(rule.EventPattern.source).toEqual(['aws.states']);
    expect(rule.EventPattern.detail.status).toEqual(['FAILED', 'TIMED_OUT', 'ABORTED']);
    expect(rule.EventPattern.detail.stateMachineArn.map(flatten)).toEqual([expect.stringMatching(MACHINE_ARN)]);
    expect(rule.Targets.map((target: { Arn: unknown }) => flatten(target.Arn))).toEqual([
      `<${functions.get('batch-run')!.logicalId}.Arn>`,
    ]);
    // EventBridge may invoke the worker
    const permissions = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::Lambda::Permission' &&
        r.Properties?.Principal === 'events.amazonaws.com' &&
        flatten(r.Properties.FunctionName) === `<${functions.get('batch-run')!.logicalId}.Arn>`,
    );
    expect(permissions).toHaveLength(1);
  });

  it('gives the batch-run worker a timeout under its task timeout', () => {
    const map = definition.States[definition.StartAt];
    const task = map.ItemProcessor.States[map.ItemProcessor.StartAt];
    expect(functions.get('batch-run')!.props.Timeout).toBeLessThan(task.TimeoutSeconds);
  });
});
