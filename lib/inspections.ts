import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { DataAccess } from '../lambdas/http/routes/define.js';
import { type InspectionSubstitutions, inspectionDefinitionJson } from '../statemachines/inspection.js';
import { type DataResources, grantDataAccess } from './access.js';
import { type ServiceFunction, serviceEnvironment, serviceFunction } from './functions.js';
import { wildcardResourceFinding } from './nag.js';

/** The stage worker: reads and writes jobs (child admission, stage records, settlement) and enqueues stage jobs. */
export const STAGE_WORKER_ACCESS: DataAccess = {
  table: 'readwrite',
  enqueue: true,
  enqueueWebhooks: true,
  writeObjects: [],
  readObjects: ['outputs'],
};

export interface InspectionsProps extends DataResources {
  docsUrl: string;
  /** start pipelines (the work-queue consumer on an inspection's message, the sweeper when resuming one) */
  starters: IFunction[];
  /** ask after pipelines (the sweeper) */
  supervisors: IFunction[];
  /** stop pipelines: an inspection past its Svc-Deadline (the work-queue consumer on its timer, the sweeper as the backstop; docs/internals/deadlines.md) */
  stoppers: IFunction[];
  /** settle stage jobs, so answer their task tokens (workers, the live completion callback) */
  settlers: IFunction[];
}

/**
 * The inspection pipeline on AWS: a STANDARD state machine built from the stage table at synth
 * (statemachines/inspection.ts; inline, with DefinitionSubstitutions), logged and traced, and
 * the stage worker its lambda:invoke tasks call. The state machine's ARN is derived from its fixed
 * name, not referenced, so functions can carry it without a dependency cycle (the machine already
 * references the stage worker).
 */
export class Inspections extends Construct {
  readonly stateMachine: StateMachine;
  readonly stageFunction: ServiceFunction;
  readonly stateMachineArn: string;

  constructor(scope: Construct, id: string, props: InspectionsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const stateMachineName = `${stack.stackName}-inspection`;
    this.stateMachineArn = stack.formatArn({
      service: 'states',
      resource: 'stateMachine',
      resourceName: stateMachineName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const executionsArn = stack.formatArn({
      service: 'states',
      resource: 'execution',
      resourceName: `${stateMachineName}:*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });

    this.stageFunction = serviceFunction(this, 'StageWorker', {
      name: 'inspection-stage',
      entry: 'lambdas/workers/inspection-stage.ts',
      description:
        'Inspection stage worker: begins a run, admits stage jobs with their task token, records stages, cancels the rest, settles the inspection',
      timeout: Duration.seconds(60),
      environment: {
        ...serviceEnvironment(props, props.docsUrl),
        STATE_MACHINE_ARN: this.stateMachineArn,
      },
    });
    grantDataAccess(this.stageFunction, props, STAGE_WORKER_ACCESS);

    const logGroup = new LogGroup(this, 'ExecutionLogs', { retention: RetentionDays.ONE_MONTH });
    const substitutions: InspectionSubstitutions = { StageFunctionArn: this.stageFunction.functionArn };
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      stateMachineName,
      stateMachineType: StateMachineType.STANDARD,
      comment: 'Vehicle inspection: eight stages, each a child job awaited by task token',
      definitionBody: DefinitionBody.fromString(inspectionDefinitionJson()),
      definitionSubstitutions: { ...substitutions },
      // ALL: every state's entry and exit; execution data stays out (it carries task tokens and job ids only, but need not be kept)
      logs: { destination: logGroup, level: LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
    });
    // the unqualified ARN is what the tasks invoke: no version or alias wildcard
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.stageFunction.functionArn] }),
    );
    Validations.of(this.stateMachine.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Step Functions log delivery (logs:CreateLogDelivery and friends) and X-Ray tracing support no resource-level permissions.',
    });

    const taskResponse = new PolicyStatement({
      actions: ['states:SendTaskSuccess', 'states:SendTaskFailure'],
      resources: [this.stateMachineArn],
    });
    for (const fn of new Set([...props.settlers, this.stageFunction])) {
      fn.addToRolePolicy(taskResponse);
      withStateMachine(fn, this.stateMachineArn);
    }
    for (const fn of props.starters) {
      fn.addToRolePolicy(
        new PolicyStatement({ actions: ['states:StartExecution'], resources: [this.stateMachineArn] }),
      );
      withStateMachine(fn, this.stateMachineArn);
    }
    // per function, what it may do to executions (named at run time: `<inspection id>-<attempt>`)
    const onExecutions = new Map<IFunction, string[]>();
    for (const fn of props.supervisors)
      onExecutions.set(fn, [...(onExecutions.get(fn) ?? []), 'states:DescribeExecution']);
    for (const fn of props.stoppers) onExecutions.set(fn, [...(onExecutions.get(fn) ?? []), 'states:StopExecution']);
    for (const [fn, actions] of onExecutions) {
      fn.addToRolePolicy(new PolicyStatement({ actions, resources: [executionsArn] }));
      withStateMachine(fn, this.stateMachineArn);
      if (fn.role) {
        Validations.of(fn.role).acknowledge({
          id: wildcardResourceFinding(fn.role, executionsArn),
          reason:
            'Execution names are made at run time (<inspection id>-<attempt>); the pattern covers exactly the executions of the one inspection state machine.',
        });
      }
    }
  }
}

function withStateMachine(fn: IFunction, arn: string): void {
  if ('addEnvironment' in fn && typeof (fn as ServiceFunction).addEnvironment === 'function')
    (fn as ServiceFunction).addEnvironment('STATE_MACHINE_ARN', arn);
}
