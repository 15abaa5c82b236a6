import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { REDACTION_ACCESS } from '../lambdas/http/routes/jobs/data-access.js';
import { type DataResources, grantDataAccess } from './access.js';
import { type ServiceFunction, serviceEnvironment, serviceFunction } from './functions.js';

/** A pass that runs out of time stops a minute before it (lambdas/workers/retention.ts) and the next carries on. */
export const RETENTION_TIMEOUT = Duration.minutes(15);
/** Data is deleted at most this long after its retention passes. */
export const RETENTION_SCHEDULE = Duration.hours(1);

export interface RetentionProps extends DataResources {
  docsUrl: string;
  /** the schedules' dead-letter queue: a tick EventBridge could not deliver, or a run that failed */
  scheduleDeadLetterQueue: Queue;
}

/**
 * The retention worker (docs/internals/data-retention.md): every hour it deletes each organisation's files
 * older than its `storage_retention_days` and redacts its older jobs. It may touch exactly what a
 * redaction may (the table; list and delete under inputs/, uploads/ and outputs/), and reads no
 * object. The bucket's lifecycle rules (lib/data.ts) stay as a backstop at the longest retention.
 */
export class Retention extends Construct {
  readonly worker: ServiceFunction;

  constructor(scope: Construct, id: string, props: RetentionProps) {
    super(scope, id);
    this.worker = serviceFunction(this, 'Worker', {
      name: 'retention',
      entry: 'lambdas/workers/retention.ts',
      description:
        'Scheduled retention: deletes files older than each organisation’s storage retention and redacts its older jobs',
      timeout: RETENTION_TIMEOUT,
      environment: serviceEnvironment(props, props.docsUrl),
      deadLetterQueue: props.scheduleDeadLetterQueue,
    });
    grantDataAccess(this.worker, props, REDACTION_ACCESS);
    new Rule(this, 'Schedule', {
      description: 'Runs the retention worker every hour',
      schedule: Schedule.rate(RETENTION_SCHEDULE),
      // the next pass carries on from the saved cursors; retrying a missed one would only overlap it
      targets: [new LambdaFunction(this.worker, { retryAttempts: 0, deadLetterQueue: props.scheduleDeadLetterQueue })],
    });
  }
}
