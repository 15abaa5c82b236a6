import type { Log } from '../lambdas/domain/ports/services.js';
import { checkPattern, matchesPattern } from './assembly/event-pattern.js';

/**
 * An EventBridge Pipe from a DynamoDB stream, as the local runtime, the unit tests' in-memory ports
 * and `start:assembly` run it: the Pipe's filter, its batches of at most `batchSize` records (sent
 * as soon as the poll returns them, a batching window of 0), its retries of a failed batch, and
 * its dead-letter queue, which gets the batch's place in the stream once the retries are spent. A
 * shard's records wait behind a batch being retried, as on AWS, where a shard is read in order.
 */

/** A DynamoDB stream record, as `GetRecords` returns it and a Pipe filters it. */
export type StreamRecord = Record<string, unknown> & {
  eventName?: string;
  dynamodb?: { SequenceNumber?: string; ApproximateCreationDateTime?: number; [field: string]: unknown };
};

/** Where a poll's records come from: a stream's shard. */
export interface StreamShard {
  streamArn: string;
  shardId: string;
}

export interface StreamPipeSettings {
  /** named by its log lines */
  name: string;
  /** event patterns, one of which a record must match to be sent (none: every record) */
  filters: readonly unknown[];
  batchSize: number;
  maximumBatchingWindowInSeconds: number;
  /** sends of a failed batch after the first; -1: until it succeeds */
  maximumRetryAttempts: number;
  /** the message a record becomes (`<$.path>` placeholders); without one, the record as JSON */
  inputTemplate?: string | undefined;
}

export interface StreamPipeEnds {
  /** sends one batch of rendered events; throws when the target refused it */
  target(events: string[]): Promise<void>;
  /** where a batch's place in the stream goes once its retries are spent; null: the batch is dropped */
  deadLetter: ((message: string) => Promise<void>) | null;
  log: Log;
  /** the wait before retry `n` (1-based); AWS backs off exponentially */
  retryDelayMs?: (retry: number) => number;
}

/** Hands a poll's records of one shard to the Pipe; settles once each batch is sent or dead-lettered. */
export type StreamPipe = (records: readonly StreamRecord[], shard: StreamShard) => Promise<void>;

/** Pipes' backoff between sends of a failed batch: doubling from 100 ms, at most 5 s apart. */
export function backoffMs(retry: number): number {
  return Math.min(5000, 100 * 2 ** (retry - 1));
}

/** `<$.a.b>` placeholders of an input template, filled from the event (strings JSON-escaped inside quotes). */
export function renderInputTemplate(template: string, event: unknown): string {
  return template.replace(
    /(")?<\$((?:\.[\w-]+|\[\d+\])*)>(")?/g,
    (_match, open: string | undefined, path: string, close: string | undefined) => {
      let value: unknown = event;
      for (const [, name, index] of path.matchAll(/\.([\w-]+)|\[(\d+)\]/g))
        value = (value as Record<string, unknown> | undefined)?.[name ?? Number(index)];
      if (open && close)
        return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(JSON.stringify(value ?? null));
      return `${open ?? ''}${JSON.stringify(value ?? null)}${close ?? ''}`;
    },
  );
}

/** What the dead-letter queue receives for a batch: where it lies in the stream, not its records. */
function deadLetterMessage(batch: readonly StreamRecord[], shard: StreamShard, attempts: number, error: unknown) {
  const first = batch[0]?.dynamodb;
  const last = batch.at(-1)?.dynamodb;
  const arrival = (seconds: number | undefined) =>
    seconds === undefined ? null : new Date(seconds * 1000).toISOString();
  return JSON.stringify({
    version: '1.0',
    timestamp: new Date().toISOString(),
    requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: attempts },
    responseContext: { error: String(error) },
    DDBStreamBatchInfo: {
      shardId: shard.shardId,
      startSequenceNumber: first?.SequenceNumber ?? null,
      endSequenceNumber: last?.SequenceNumber ?? null,
      approximateArrivalOfFirstRecord: arrival(first?.ApproximateCreationDateTime),
      approximateArrivalOfLastRecord: arrival(last?.ApproximateCreationDateTime),
      batchSize: batch.length,
      streamArn: shard.streamArn,
    },
  });
}

export function streamPipe(settings: StreamPipeSettings, ends: StreamPipeEnds): StreamPipe {
  for (const filter of settings.filters) checkPattern(filter, settings.name);
  if (settings.maximumBatchingWindowInSeconds !== 0)
    throw new Error(`${settings.name}: only a batching window of 0 is run locally`);
  const render = (record: StreamRecord) =>
    settings.inputTemplate ? renderInputTemplate(settings.inputTemplate, record) : JSON.stringify(record);
  const retryDelayMs = ends.retryDelayMs ?? backoffMs;

  const send = async (batch: readonly StreamRecord[], shard: StreamShard) => {
    const events = batch.map(render);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await ends.target(events);
        return;
      } catch (error) {
        const retries = settings.maximumRetryAttempts;
        if (retries < 0 || attempt <= retries) {
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
          continue;
        }
        ends.log.warn('pipe gave up on a batch after its retries', {
          pipe: settings.name,
          records: batch.length,
          attempts: attempt,
          error: String(error),
          dead_lettered: ends.deadLetter !== null,
        });
        await ends.deadLetter?.(deadLetterMessage(batch, shard, attempt, error));
        return;
      }
    }
  };

  return async (records, shard) => {
    const passing = settings.filters.length
      ? records.filter((record) => settings.filters.some((filter) => matchesPattern(filter, record)))
      : records;
    for (let i = 0; i < passing.length; i += settings.batchSize)
      await send(passing.slice(i, i + settings.batchSize), shard);
  };
}
