import { ArnFormat, Duration, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { PLANE_ENDPOINTS_VARIABLE } from '../lambdas/domain/catalogue/plane-declaration.js';
import type { DataAccess } from '../lambdas/http/routes/define.js';
import { FAILED_RUN_STATUSES } from '../lambdas/schemas/batch-run.js';
import { type BatchSubstitutions, batchDefinitionJson, ITEM_BATCH_SECONDS } from '../statemachines/batch.js';
import { type DataResources, grantDataAccess } from './access.js';
import { OBJECT_PREFIXES } from './data.js';
import { type ServiceFunction, serviceEnvironment, serviceFunction } from './functions.js';
import { wildcardResourceFinding } from './nag.js';
import { DATA_PARAMETERS, dataParameterValues, importedDataResources, stackParameters } from './nested-data.js';
import { acknowledgeDeadLetterQueue } from './queues.js';

/** The batch-run worker admits lines as `POST /v1/batches` would (jobs, their messages) and completes batches (the output file, the event). */
export const BATCH_RUN_ACCESS: DataAccess = {
  table: 'readwrite',
  enqueue: true,
  enqueueWebhooks: true,
  readObjects: ['uploads', 'outputs'],
  writeObjects: ['outputs'],
};

export interface BatchesProps extends DataResources {
  docsUrl: string;
  /** the deployed stack's name: the state machine is `<stackName>-batch` */
  stackName: string;
  /** start batch runs: the function of `POST /v1/batches` */
  starters: IFunction[];
  /** what the stack's plane computes (`INFERENCE_PLANE_ENDPOINTS`): a batch's lines are admitted against it */
  planeEndpoints: string;
}

/**
 * Batches on AWS (docs/internals/batches.md, "How it runs"): a STANDARD state machine whose Distributed Map
 * reads a batch's JSONL input from S3 (statemachines/batch.ts; inline, with
 * DefinitionSubstitutions) and the batch-run worker its item batches invoke. The state machine's
 * ARN is derived from its fixed name, so the create function carries it without a dependency cycle.
 */
export class Batches extends Construct {
  readonly stateMachine: StateMachine;
  readonly runFunction: ServiceFunction;
  readonly stateMachineArn: string;
  /** a failed run's event EventBridge could not deliver, or whose handling failed: its depth alarms */
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: BatchesProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const stateMachineName = `${props.stackName}-batch`;
    this.deadLetterQueue = new Queue(this, 'FailedRunEventsDeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledgeDeadLetterQueue(this.deadLetterQueue);
    this.stateMachineArn = stack.formatArn({
      service: 'states',
      resource: 'stateMachine',
      resourceName: stateMachineName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    // the Distributed Map's child executions: `<name>/<map run label>:<id>`
    const childExecutionsArn = stack.formatArn({
      service: 'states',
      resource: 'execution',
      resourceName: `${stateMachineName}/*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });

    this.runFunction = serviceFunction(this, 'RunWorker', {
      name: 'batch-run',
      entry: 'lambdas/workers/batch-run.ts',
      description:
        "Batch-run worker: admits a Distributed Map item batch's lines, marks a batch fully read, lets go of a failed run's lease",
      // under the task's own timeout, so a slow invocation is Lambda's timeout and retried
      timeout: Duration.seconds(ITEM_BATCH_SECONDS - 10),
      memorySize: 512,
      environment: { ...serviceEnvironment(props, props.docsUrl), [PLANE_ENDPOINTS_VARIABLE]: props.planeEndpoints },
      // EventBridge invokes it asynchronously with a failed run's status change
      deadLetterQueue: this.deadLetterQueue,
    });
    grantDataAccess(this.runFunction, props, BATCH_RUN_ACCESS);

    const logGroup = new LogGroup(this, 'ExecutionLogs', { retention: RetentionDays.ONE_MONTH });
    const substitutions: BatchSubstitutions = { BatchRunFunctionArn: this.runFunction.functionArn };
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      stateMachineName,
      stateMachineType: StateMachineType.STANDARD,
      comment: 'A batch: its JSONL input read by a Distributed Map, 40 lines to an item batch, each line admitted once',
      definitionBody: DefinitionBody.fromString(batchDefinitionJson()),
      definitionSubstitutions: { ...substitutions },
      // ALL: every state's entry and exit; execution data (lines, lease tokens) stays out
      logs: { destination: logGroup, level: LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
    });
    const role = this.stateMachine.role;
    // the ItemReader reads the input file, an upload
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [props.bucket.arnForObjects(`${OBJECT_PREFIXES.uploads}*`)],
      }),
    );
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.runFunction.functionArn] }),
    );
    // a Distributed Map starts its item batches as child executions of its own state machine
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({ actions: ['states:StartExecution'], resources: [this.stateMachineArn] }),
    );
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({
        actions: ['states:DescribeExecution', 'states:StopExecution'],
        resources: [childExecutionsArn],
      }),
    );
    Validations.of(role).acknowledge(
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Step Functions log delivery (logs:CreateLogDelivery and friends) and X-Ray tracing support no resource-level permissions.',
      },
      {
        id: wildcardResourceFinding(role, childExecutionsArn),
        reason:
          "A Distributed Map's child executions are named at run time; the pattern covers exactly this state machine's.",
      },
      {
        id: wildcardResourceFinding(role, props.bucket.arnForObjects(`${OBJECT_PREFIXES.uploads}*`)),
        reason: 'Input files are uploads, named at run time under the uploads/ prefix.',
      },
    );

    // a run that fails where no Catch sees it (States.DataLimitExceeded, its own timeout, a stop)
    // never reaches "Release lease": its status change lets go of the lease, so the sweeper takes
    // the batch over at once instead of after the run's lease (4 hours)
    new Rule(this, 'FailedRuns', {
      description: 'A batch run that did not succeed: the batch-run worker lets go of its lease',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: { status: [...FAILED_RUN_STATUSES], stateMachineArn: [this.stateMachineArn] },
      },
      // EventBridge retries a failed delivery for up to 24 hours
      targets: [
        new LambdaFunction(this.runFunction, {
          retryAttempts: 185,
          maxEventAge: Duration.hours(24),
          deadLetterQueue: this.deadLetterQueue,
        }),
      ],
    });

    for (const fn of props.starters) {
      fn.addToRolePolicy(
        new PolicyStatement({ actions: ['states:StartExecution'], resources: [this.stateMachineArn] }),
      );
      if ('addEnvironment' in fn && typeof (fn as ServiceFunction).addEnvironment === 'function')
        (fn as ServiceFunction).addEnvironment('BATCH_STATE_MACHINE_ARN', this.stateMachineArn);
    }
  }
}

/** The batch resources in a nested stack of their own: the main template stays under its resource budget. */
export class BatchesStack extends NestedStack {
  readonly batches: Batches;

  constructor(scope: Construct, id: string, props: BatchesProps) {
    const values = { ...dataParameterValues(props), DocsUrl: props.docsUrl };
    super(scope, id, {
      description: 'Automotive Inference: batches, a Distributed Map over the JSONL input and its worker',
      parameters: values,
    });
    const param = stackParameters(this, PARAMETERS);
    // the main stack's resources as parameters: the only references from this stack to it
    this.batches = new Batches(this, 'Batches', {
      ...importedDataResources(this, param),
      docsUrl: param.DocsUrl,
      stackName: props.stackName,
      starters: props.starters,
      planeEndpoints: props.planeEndpoints,
    });
  }
}

const PARAMETERS = [...DATA_PARAMETERS, 'DocsUrl'] as const;
