import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnPipe } from 'aws-cdk-lib/aws-pipes';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { WorkLane } from '../lambdas/domain/ports/jobs.js';
import { jobStreamPipe } from './job-stream-definition.js';

export interface JobStreamProps {
  table: Table;
  lanes: Record<WorkLane, Queue>;
  /** where a record goes that a Pipe could not send after its retries (its depth alarms) */
  deadLetterQueue: Queue;
}

/**
 * The enqueue of admitted jobs, off the request path: one EventBridge Pipe per work lane reads
 * the table's stream and sends the id of each newly inserted job item of its lane to the lane's
 * queue. The admission transaction is the only write an admitting call makes; a record the Pipe
 * fails to send is retried by it, and a job still queued past `redrive_at` is re-sent by the sweeper.
 */
export class JobStream extends Construct {
  readonly pipes: Record<WorkLane, CfnPipe>;

  constructor(scope: Construct, id: string, props: JobStreamProps) {
    super(scope, id);
    const streamArn = props.table.tableStreamArn;
    if (!streamArn) throw new Error('the table needs a stream (NEW_IMAGE) for the job stream');
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('pipes.amazonaws.com'),
      description: 'Reads the table stream, sends work messages',
    });
    role.addToPolicy(
      new PolicyStatement({
        actions: [
          'dynamodb:DescribeStream',
          'dynamodb:GetRecords',
          'dynamodb:GetShardIterator',
          'dynamodb:ListStreams',
        ],
        resources: [streamArn],
      }),
    );
    props.deadLetterQueue.grantSendMessages(role);
    const pipe = (lane: WorkLane, queue: Queue) => {
      queue.grantSendMessages(role);
      // the same definition the local runtime runs (lib/job-stream-definition.ts)
      const definition = jobStreamPipe(lane);
      return new CfnPipe(this, `${lane === 'fast' ? 'Fast' : 'Standard'}LanePipe`, {
        roleArn: role.roleArn,
        description: `New jobs of the ${lane} lane → their work queue`,
        source: streamArn,
        sourceParameters: {
          dynamoDbStreamParameters: {
            startingPosition: definition.startingPosition,
            batchSize: definition.batchSize,
            maximumBatchingWindowInSeconds: definition.maximumBatchingWindowInSeconds,
            maximumRetryAttempts: definition.maximumRetryAttempts,
            // the record's place in the stream is kept there; the job itself is re-sent by the sweeper at `redrive_at`
            deadLetterConfig: { arn: props.deadLetterQueue.queueArn },
          },
          filterCriteria: { filters: [{ pattern: JSON.stringify(definition.filterPattern) }] },
        },
        target: queue.queueArn,
        targetParameters: { inputTemplate: definition.inputTemplate },
      });
    };
    this.pipes = { standard: pipe('standard', props.lanes.standard), fast: pipe('fast', props.lanes.fast) };
  }
}
