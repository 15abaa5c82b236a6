import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type DataResources, grantDataAccess, JOB_DRIVER_ACCESS } from './access.js';
import { QUEUE_CONCURRENCY } from './concurrency.js';
import { consumeQueue, type ServiceFunction, serviceEnvironment, serviceFunction } from './functions.js';

/** Timeout of both workers; the work queue's visibility timeout is derived from it. */
export const WORKER_TIMEOUT = Duration.seconds(60);

/** How often the sweeper runs. */
export const SWEEP_INTERVAL = Duration.minutes(1);

/** SQS batch size of the consumer; failures are reported per record. */
export const WORK_BATCH_SIZE = 10;

export interface WorkersProps extends DataResources {
  workQueue: Queue;
  fastWorkQueue: Queue;
  docsUrl: string;
  /** the schedules' dead-letter queue: a tick EventBridge could not deliver, or a run that failed */
  scheduleDeadLetterQueue: Queue;
  /** extra variables of both workers: where the inference plane is (lib/management-settings.ts) */
  environment?: Record<string, string>;
}

/** The work-queue consumer (runs test-mode jobs, hands live ones on) and the scheduled sweeper. */
export class Workers extends Construct {
  readonly consumer: ServiceFunction;
  readonly sweeper: ServiceFunction;

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    const environment = {
      ...serviceEnvironment(props, props.docsUrl),
      ...props.environment,
    };

    this.consumer = serviceFunction(this, 'WorkQueueConsumer', {
      name: 'work-queue-consumer',
      entry: 'lambdas/workers/work-queue-consumer.ts',
      description: 'Work queue consumer: runs test-mode jobs, hands live jobs to the inference plane, settles',
      timeout: WORKER_TIMEOUT,
      environment,
    });
    grantDataAccess(this.consumer, props, JOB_DRIVER_ACCESS);
    // one consumer, two lanes: the standard lane's concurrency is capped, so a backlog of slow work
    // can never take the concurrency the fast lane's `wait=true` callers need
    consumeQueue(this.consumer, props.workQueue, {
      batchSize: WORK_BATCH_SIZE,
      maxConcurrency: QUEUE_CONCURRENCY.standardLane,
    });
    consumeQueue(this.consumer, props.fastWorkQueue, {
      batchSize: WORK_BATCH_SIZE,
      maxConcurrency: QUEUE_CONCURRENCY.fastLane,
    });

    this.sweeper = serviceFunction(this, 'Sweeper', {
      name: 'sweeper',
      entry: 'lambdas/workers/sweeper.ts',
      description:
        'Scheduled sweeper: expires overdue queued jobs and re-drives jobs whose work message was lost, one run at a time',
      timeout: WORKER_TIMEOUT,
      environment,
    });
    grantDataAccess(this.sweeper, props, JOB_DRIVER_ACCESS);
    // a failed run is not run again by Lambda (its retries would land on the next tick's run) but
    // parked where an operator sees it; a run never overlaps another: each takes the sweeper's lease
    // in the table (docs/internals/operations.md)
    this.sweeper.configureAsyncInvoke({
      retryAttempts: 0,
      maxEventAge: SWEEP_INTERVAL,
      onFailure: new SqsDestination(props.scheduleDeadLetterQueue),
    });
    new Rule(this, 'SweepSchedule', {
      description: 'Runs the sweeper every minute',
      schedule: Schedule.rate(SWEEP_INTERVAL),
      // the next tick comes within a minute; retrying a missed one only overlaps it
      targets: [new LambdaFunction(this.sweeper, { retryAttempts: 0, deadLetterQueue: props.scheduleDeadLetterQueue })],
    });
  }
}
