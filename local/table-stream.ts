import type { Log } from '../lambdas/domain/ports/services.js';
import type { StreamRecord, StreamShard } from './stream-pipe.js';

/**
 * How often an idle table's stream is read: about four times a second, as Pipes and Lambda read a
 * DynamoDB stream's shard (GetRecords is limited to five calls a second per shard on AWS). Every
 * runtime of a test run shares one DynamoDB Local's CPU (each its own database), so a faster idle
 * poll is paid by all of them.
 * A process that writes a job item says so (`nudge`), and the stream is read at once instead.
 */
const STREAM_POLL_MS = 250;
/**
 * new shards (DynamoDB Local rolls them over, as DynamoDB does) are looked for at once when one closes
 * (its iterator ends), and this often besides
 */
const DESCRIBE_EVERY_MS = 5000;

/** Where a table's stream is read: DynamoDB Local, as the account that owns the table (its database there). */
export interface StreamSource {
  endpoint: string;
  accessKeyId: string;
}

/** DynamoDB Streams, spoken to DynamoDB Local directly (no SDK client for streams is installed; the calls are the Pipes service's, not ours). */
async function streamsCall(source: StreamSource, operation: string, body: object): Promise<Record<string, unknown>> {
  const response = await fetch(source.endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.0',
      'X-Amz-Target': `DynamoDBStreams_20120810.${operation}`,
      Authorization: `AWS4-HMAC-SHA256 Credential=${source.accessKeyId}/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`DynamoDB Streams ${operation}: ${JSON.stringify(answer)}`);
  return answer;
}

export interface StreamPoller {
  /** settles once the stream's open shards have their starting positions: records written after it are seen */
  positioned: Promise<void>;
  /**
   * Reads the stream now rather than at the next idle poll (or again right after a read under way,
   * which may have missed the write): a write that may have added records was just made. The
   * records are still read from the stream; this only wakes the reader.
   */
  nudge(): void;
  stop(): Promise<void>;
}

/**
 * Reads every shard of a stream from its newest record on (shards that open later from their
 * start) and hands each poll's records to `deliver`, shard by shard, in order. A shard moves on
 * only once `deliver` has settled: a batch being retried holds its shard back, as on AWS.
 */
export function pollStream(
  source: StreamSource,
  streamArn: string,
  deliver: (records: StreamRecord[], shard: StreamShard) => Promise<void>,
  log: Log,
  intervalMs = STREAM_POLL_MS,
): StreamPoller {
  const iterators = new Map<string, string | null>();
  let first = true;
  let describedAt = 0;
  let stopped = false;
  let markPositioned!: () => void;
  const positioned = new Promise<void>((resolve) => {
    markPositioned = resolve;
  });
  const describe = async () => {
    const described = (await streamsCall(source, 'DescribeStream', { StreamArn: streamArn })) as {
      StreamDescription: { Shards: Array<{ ShardId: string }> };
    };
    for (const { ShardId } of described.StreamDescription.Shards) {
      if (iterators.has(ShardId)) continue;
      // shards open at start begin at their newest record (the Pipes' LATEST); later ones from their start
      const { ShardIterator } = (await streamsCall(source, 'GetShardIterator', {
        StreamArn: streamArn,
        ShardId,
        ShardIteratorType: first ? 'LATEST' : 'TRIM_HORIZON',
      })) as { ShardIterator: string };
      iterators.set(ShardId, ShardIterator);
    }
    first = false;
    describedAt = Date.now();
    markPositioned();
  };
  /** the last record handed on, per shard: where reading resumes when an iterator is refused */
  const lastSequence = new Map<string, string>();
  const reposition = async (shardId: string) => {
    const after = lastSequence.get(shardId);
    const { ShardIterator } = (await streamsCall(source, 'GetShardIterator', {
      StreamArn: streamArn,
      ShardId: shardId,
      ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : {}),
      ...(after ? {} : { ShardIteratorType: 'TRIM_HORIZON' }),
    })) as { ShardIterator: string };
    iterators.set(shardId, ShardIterator);
  };
  const read = async (shardId: string, iterator: string) => {
    try {
      return (await streamsCall(source, 'GetRecords', { ShardIterator: iterator })) as {
        Records: StreamRecord[];
        NextShardIterator?: string;
      };
    } catch (error) {
      // DynamoDB Local refuses an iterator it has trimmed past (or let expire): read on after the last record handed on
      if (!/TrimmedDataAccessException|ExpiredIteratorException/.test(String(error))) throw error;
      await reposition(shardId);
      return null;
    }
  };
  const tick = async () => {
    if (first || Date.now() - describedAt >= DESCRIBE_EVERY_MS) await describe();
    for (const [shardId, iterator] of iterators) {
      if (!iterator) continue;
      const page = await read(shardId, iterator);
      if (!page) continue;
      const { Records, NextShardIterator } = page;
      if (Records.length) {
        await deliver(
          Records.map((record) => ({ ...record, eventSourceARN: streamArn })),
          { streamArn, shardId },
        );
        const sequence = Records.at(-1)!.dynamodb?.SequenceNumber;
        if (sequence) lastSequence.set(shardId, sequence);
      }
      iterators.set(shardId, NextShardIterator ?? null);
      // a closed shard: its children are found at once
      if (!NextShardIterator) describedAt = 0;
    }
  };
  /** set by a nudge: another read follows the one under way without waiting */
  let nudged = false;
  let wake: (() => void) | null = null;
  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, intervalMs);
      wake = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
    });
  const loop = (async () => {
    while (!stopped) {
      nudged = false;
      await tick().catch((error: unknown) => {
        if (!stopped) log.warn('stream poll failed', { stream: streamArn, error: String(error) });
      });
      if (!nudged && !stopped) await idle();
    }
  })();
  return {
    positioned,
    nudge: () => {
      nudged = true;
      wake?.();
    },
    stop: async () => {
      stopped = true;
      markPositioned();
      wake?.();
      await loop;
      // a last read: records written up to the stop are handed on, not left to a reader that starts at LATEST
      if (!first)
        await tick().catch((error: unknown) => {
          log.warn('last stream read failed', { stream: streamArn, error: String(error) });
        });
    },
  };
}
