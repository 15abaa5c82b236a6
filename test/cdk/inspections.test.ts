import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { INSPECTION_ASL_PATH } from '../../statemachines/inspection.js';
import {
  actionsOf,
  type CfnResource,
  flatten,
  ownFunctions,
  type Statement,
  statementsOf,
  synthStack,
} from './template.js';

let resources: Record<string, CfnResource>;
let functions: ReturnType<typeof ownFunctions>;
let machine: Record<string, any>;

beforeAll(() => {
  ({ resources } = synthStack());
  functions = ownFunctions(resources);
  const machines = Object.entries(resources).filter(
    ([, r]) =>
      r.Type === 'AWS::StepFunctions::StateMachine' && r.Properties?.StateMachineName === 'TestStack-inspection',
  );
  expect(machines).toHaveLength(1);
  machine = machines[0]![1].Properties ?? {};
});

const statementsFor = (name: string): Statement[] => statementsOf(resources, functions.get(name)!.logicalId);
const stateActions = (statements: Statement[]) =>
  actionsOf(statements)
    .filter((a) => a.startsWith('states:'))
    .sort();
const MACHINE_ARN = /^arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:stateMachine:TestStack-inspection$/;

describe('inspection state machine', () => {
  it('is a STANDARD state machine whose definition is statemachines/inspection.asl.json, inline, with the stage worker substituted', () => {
    expect(machine.StateMachineType).toBe('STANDARD');
    expect(machine.StateMachineName).toBe('TestStack-inspection');
    const definition = flatten(machine.DefinitionString);
    expect(JSON.parse(definition)).toEqual(JSON.parse(readFileSync(INSPECTION_ASL_PATH, 'utf8')));
    expect(flatten(machine.DefinitionSubstitutions.StageFunctionArn)).toBe(
      `<${functions.get('inspection-stage')!.logicalId}.Arn>`,
    );
  });

  it('logs every state to its own log group and traces with X-Ray', () => {
    expect(machine.LoggingConfiguration.Level).toBe('ALL');
    expect(machine.LoggingConfiguration.Destinations[0].CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][1]).toBe(
      'Arn',
    );
    expect(machine.TracingConfiguration).toEqual({ Enabled: true });
  });

  it('may invoke the stage worker (its unqualified ARN) and nothing else', () => {
    const roleId = machine.RoleArn['Fn::GetAtt'][0] as string;
    const statements = Object.values(resources)
      .filter(
        (r) =>
          r.Type === 'AWS::IAM::Policy' &&
          (r.Properties!.Roles as { Ref: string }[]).some((role) => role.Ref === roleId),
      )
      .flatMap((r) => r.Properties!.PolicyDocument.Statement as Statement[]);
    const invoke = statements.filter((s) => actionsOf([s]).includes('lambda:InvokeFunction'));
    expect(invoke.map((s) => flatten(s.Resource))).toEqual([`<${functions.get('inspection-stage')!.logicalId}.Arn>`]);
    expect(actionsOf(statements).filter((a) => a.startsWith('lambda:'))).toEqual(['lambda:InvokeFunction']);
  });
});

describe('inspection grants', () => {
  it('lets the work-queue consumer start executions, stop them (a deadline) and answer stage tasks, and tells it the state machine', () => {
    expect(stateActions(statementsFor('work-queue-consumer'))).toEqual([
      'states:SendTaskFailure',
      'states:SendTaskSuccess',
      'states:StartExecution',
      'states:StopExecution',
    ]);
    const onMachine = statementsFor('work-queue-consumer').filter((s) =>
      actionsOf([s]).some((a) => a.startsWith('states:') && a !== 'states:StopExecution'),
    );
    for (const s of onMachine) expect(flatten(s.Resource)).toMatch(MACHINE_ARN);
    expect(flatten(functions.get('work-queue-consumer')!.props.Environment.Variables.STATE_MACHINE_ARN)).toMatch(
      MACHINE_ARN,
    );
  });

  it('lets the sweeper resume (start), supervise (describe its executions only), stop them (a deadline) and answer stage tasks', () => {
    expect(stateActions(statementsFor('sweeper'))).toEqual([
      'states:DescribeExecution',
      'states:SendTaskFailure',
      'states:SendTaskSuccess',
      'states:StartExecution',
      'states:StopExecution',
    ]);
    const describe = statementsFor('sweeper').find((s) => actionsOf([s]).includes('states:DescribeExecution'))!;
    expect(flatten(describe.Resource)).toBe(
      'arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:TestStack-inspection:*',
    );
  });

  it('lets the live completion callback and the stage worker answer stage tasks, and start nothing', () => {
    expect(stateActions(statementsFor('receive-completion'))).toEqual([
      'states:SendTaskFailure',
      'states:SendTaskSuccess',
    ]);
    expect(stateActions(statementsFor('inspection-stage'))).toEqual([
      'states:SendTaskFailure',
      'states:SendTaskSuccess',
    ]);
    expect(flatten(functions.get('inspection-stage')!.props.Environment.Variables.STATE_MACHINE_ARN)).toMatch(
      MACHINE_ARN,
    );
  });

  it('gives no other function any Step Functions permission', () => {
    // create-batch starts batch runs (test/cdk/batches.test.ts)
    const allowed = new Set([
      'work-queue-consumer',
      'sweeper',
      'receive-completion',
      'inspection-stage',
      'create-batch',
    ]);
    for (const [name, fn] of functions) {
      if (allowed.has(name)) continue;
      expect(stateActions(statementsOf(resources, fn.logicalId)), name).toEqual([]);
    }
  });
});
