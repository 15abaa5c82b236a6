import { Duration, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { SQS_MAX_MESSAGE_BYTES } from '../lambdas/adapters/sqs-queue.js';

export interface QueuesProps {
  /** timeout of the function consuming the work queue; the visibility timeout is derived from it */
  workerTimeout: Duration;
  /** timeout of the webhook delivery function; its queue's visibility timeout is derived from it */
  deliveryTimeout: Duration;
}

/** A message is tried this often before it is parked on the dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

/**
 * A dead-letter queue has no dead-letter queue of its own: what parks there waits for an operator,
 * and its depth alarms (lib/observability.ts; docs/internals/operations.md says what to do). AwsSolutions-SQS3
 * knows a queue for a dead-letter queue when a redrive policy, a function or an event rule names it,
 * not when a Pipe does: only the Pipes' queue is `unrecognised`.
 */
export function acknowledgeDeadLetterQueue(queue: Queue, unrecognised = false): void {
  const reason =
    'A dead-letter queue itself: what parks on it waits for an operator, and its depth alarms (docs/internals/operations.md).';
  Validations.of(queue).acknowledge({ id: 'Serverless-SQSRedrivePolicy', reason });
  if (unrecognised) Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason });
}

/**
 * The work queue (messages carry job ids only; the table is the source of truth) and its
 * dead-letter queue. A job whose message dies is not lost: the sweeper re-drives it from the table.
 */
export class Queues extends Construct {
  readonly workQueue: Queue;
  /** the lane of endpoints that accept `wait=true` (lambdas/domain/jobs/work-lanes.ts) */
  readonly fastWorkQueue: Queue;
  readonly workDeadLetterQueue: Queue;
  /** standard (not FIFO): per-message delays carry the webhook retry schedule */
  readonly webhookQueue: Queue;
  readonly webhookDeadLetterQueue: Queue;
  /** what the sweeper's and retention worker's schedules could not deliver, and their runs that failed */
  readonly scheduleDeadLetterQueue: Queue;
  /** what the table stream's Pipes could not send to a work queue after their retries */
  readonly streamDeadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: QueuesProps) {
    super(scope, id);
    // every queue: encrypted at rest, TLS only
    const secured = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;
    const deadLetterQueue = (id: string, unrecognised = false) => {
      const queue = new Queue(this, id, { ...secured, retentionPeriod: Duration.days(14) });
      acknowledgeDeadLetterQueue(queue, unrecognised);
      return queue;
    };
    /**
     * A queue a function consumes. AWS's advice for Lambda event sources: a visibility timeout of at
     * least six times the function timeout, so a batch still being worked on (or retried by Lambda) is
     * not redelivered. A message that keeps failing is parked; its work is not lost: the sweeper
     * re-drives jobs and re-sends overdue deliveries from the table.
     */
    const consumedQueue = (id: string, consumerTimeout: Duration, parkedOn: Queue) =>
      new Queue(this, id, {
        ...secured,
        maxMessageSizeBytes: SQS_MAX_MESSAGE_BYTES,
        visibilityTimeout: Duration.seconds(consumerTimeout.toSeconds() * 6),
        deadLetterQueue: { queue: parkedOn, maxReceiveCount: MAX_RECEIVE_COUNT },
      });
    this.workDeadLetterQueue = deadLetterQueue('WorkDeadLetterQueue');
    this.workQueue = consumedQueue('WorkQueue', props.workerTimeout, this.workDeadLetterQueue);
    this.fastWorkQueue = consumedQueue('FastWorkQueue', props.workerTimeout, this.workDeadLetterQueue);
    this.webhookDeadLetterQueue = deadLetterQueue('WebhookDeadLetterQueue');
    this.webhookQueue = consumedQueue('WebhookQueue', props.deliveryTimeout, this.webhookDeadLetterQueue);
    this.scheduleDeadLetterQueue = deadLetterQueue('ScheduleDeadLetterQueue');
    this.streamDeadLetterQueue = deadLetterQueue('StreamDeadLetterQueue', true);
  }
}
