import { TABLE_DEFINITION } from '../lambdas/adapters/dynamodb/table-definition.js';
import type { WorkLane } from '../lambdas/domain/ports/jobs.js';

/**
 * The job stream's Pipes as one definition: the CDK stack deploys it (lib/job-stream.ts), the local
 * runtime and the unit tests' in-memory ports run it (local/stream-pipe.ts), so the filter, the
 * batching and the retries cannot drift between AWS and what `npm test` proves.
 */
export interface StreamPipeDefinition {
  /** where a Pipe starts reading a stream it has never read: records written before it are not sent */
  startingPosition: 'LATEST';
  /** records per target invocation at most */
  batchSize: number;
  /** 0: a batch is sent as soon as the poll returns it */
  maximumBatchingWindowInSeconds: number;
  /** sends of a failed batch after the first, before its place in the stream goes to the dead-letter queue */
  maximumRetryAttempts: number;
  /** the records sent (EventBridge's event pattern over the stream record) */
  filterPattern: Record<string, unknown>;
  /** the message a record becomes */
  inputTemplate: string;
}

/** What a Pipe sends for a new job: the same `{ job_id }` message the sweeper sends. */
export const WORK_MESSAGE_TEMPLATE = '{"job_id": "<$.dynamodb.NewImage.id.S>"}';

/** The Pipe of one work lane: the id of each newly inserted job item of that lane, to the lane's queue. */
export function jobStreamPipe(lane: WorkLane): StreamPipeDefinition {
  return {
    startingPosition: 'LATEST',
    batchSize: 10,
    maximumBatchingWindowInSeconds: 0,
    maximumRetryAttempts: 10,
    filterPattern: {
      eventName: ['INSERT'],
      dynamodb: {
        NewImage: { pk: { S: [{ prefix: 'JOB#' }] }, [TABLE_DEFINITION.jobLaneAttribute]: { S: [lane] } },
      },
    },
    inputTemplate: WORK_MESSAGE_TEMPLATE,
  };
}
