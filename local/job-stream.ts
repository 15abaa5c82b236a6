import type { WorkLane } from '../lambdas/domain/ports/jobs.js';
import type { Log } from '../lambdas/domain/ports/services.js';
import { jobStreamPipe } from '../lib/job-stream-definition.js';
import type { QueueTransport } from './queue-loop.js';
import {
  type StreamPipe,
  type StreamPipeEnds,
  type StreamRecord,
  type StreamShard,
  streamPipe,
} from './stream-pipe.js';
import { pollStream, type StreamPoller, type StreamSource } from './table-stream.js';

/** What the job stream's Pipes send to: each lane's work queue, and the dead-letter queue they share. */
export interface JobStreamEnds {
  /** sends one batch of work messages to a lane's queue; throws when the queue refused it */
  send(lane: WorkLane, messages: string[]): Promise<void>;
  deadLetter(message: string): Promise<void>;
  log: Log;
  retryDelayMs?: StreamPipeEnds['retryDelayMs'];
}

/**
 * The job stream's two Pipes (lib/job-stream-definition.ts: the same filter, batching and retries
 * the CDK stack deploys), fed by any stream of the table's records: DynamoDB Local's under the
 * local runtime, the in-memory tables' in unit tests. Both lanes see every record, each sends its own.
 */
export function jobStreamPipes(ends: JobStreamEnds): StreamPipe {
  const lanes: WorkLane[] = ['standard', 'fast'];
  const pipes = lanes.map((lane) => {
    const definition = jobStreamPipe(lane);
    return streamPipe(
      {
        name: `job stream (${lane} lane)`,
        filters: [definition.filterPattern],
        batchSize: definition.batchSize,
        maximumBatchingWindowInSeconds: definition.maximumBatchingWindowInSeconds,
        maximumRetryAttempts: definition.maximumRetryAttempts,
        inputTemplate: definition.inputTemplate,
      },
      {
        target: (messages) => ends.send(lane, messages),
        deadLetter: ends.deadLetter,
        log: ends.log,
        ...(ends.retryDelayMs ? { retryDelayMs: ends.retryDelayMs } : {}),
      },
    );
  });
  return async (records: readonly StreamRecord[], shard: StreamShard) => {
    await Promise.all(pipes.map((pipe) => pipe(records, shard)));
  };
}

/**
 * The idle read of a stream whose every job insert nudges the reader (nudgeOnJobPuts): a safety net for
 * a write the nudges missed, not the path. At AWS's pace (four reads a second) an idle runtime spent
 * about 3% of a core on reads that found nothing, in Node and DynamoDB Local together, and a test run
 * keeps several runtimes idle at once.
 */
const NUDGED_STREAM_POLL_MS = 2000;

/** The local runtime's job stream: DynamoDB Local's stream of the table, read as the Pipes read it, to the stand-in's queues. */
export function startJobStream(options: {
  dynamodb: StreamSource;
  streamArn: string;
  queues: Pick<QueueTransport, 'send'>;
  queueUrls: Record<WorkLane, string>;
  deadLetterQueueUrl: string;
  log: Log;
}): StreamPoller {
  const sendTo = async (queueUrl: string, body: string) => {
    await options.queues.send({ QueueUrl: queueUrl, MessageBody: body });
  };
  const pipes = jobStreamPipes({
    send: async (lane, messages) => {
      for (const message of messages) await sendTo(options.queueUrls[lane], message);
    },
    deadLetter: (message) => sendTo(options.deadLetterQueueUrl, message),
    log: options.log,
  });
  return pollStream(options.dynamodb, options.streamArn, pipes, options.log, NUDGED_STREAM_POLL_MS);
}
