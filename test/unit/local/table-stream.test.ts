import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamRecord } from '../../../local/stream-pipe.js';
import { pollStream, type StreamPoller } from '../../../local/table-stream.js';
import { RecordingLog } from '../../support/in-memory/services.js';

/**
 * The local reader of a table's stream (DynamoDB Streams' API, as DynamoDB Local answers it): idle,
 * it reads at its interval; nudged, it reads at once, and again after a read a nudge came during.
 */
const STREAM_ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/1';

/** A stream of one open shard, its records handed out as `GetRecords` reads them; each read can be held. */
function fakeStreams() {
  const pending: StreamRecord[] = [];
  let reads = 0;
  let hold: Promise<void> | null = null;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', async () => {
      const operation = String(request.headers['x-amz-target']).split('.')[1];
      const answer = async (): Promise<object> => {
        if (operation === 'DescribeStream') return { StreamDescription: { Shards: [{ ShardId: 'shardId-1' }] } };
        if (operation === 'GetShardIterator') return { ShardIterator: 'iterator' };
        reads += 1;
        // what the stream holds when the read reaches it; a write after that waits for the next read
        const records = pending.splice(0);
        await hold;
        return { Records: records, NextShardIterator: 'iterator' };
      };
      response.setHeader('Content-Type', 'application/x-amz-json-1.0');
      response.end(JSON.stringify(await answer()));
    });
  });
  return {
    server,
    reads: () => reads,
    write: (id: string) => pending.push({ eventName: 'INSERT', dynamodb: { SequenceNumber: id } }),
    /** holds every read from now on until the returned function is called */
    holdReads: () => {
      let release!: () => void;
      hold = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        hold = null;
        release();
      };
    },
  };
}

const running: Array<{ poller: StreamPoller; server: Server }> = [];

afterEach(async () => {
  for (const { poller, server } of running.splice(0)) {
    await poller.stop();
    server.close();
  }
});

async function startReader() {
  const streams = fakeStreams();
  await new Promise<void>((resolve) => streams.server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(streams.server.address() as AddressInfo).port}`;
  const delivered: string[] = [];
  // an idle interval no test waits for: every read after the first is a nudge's
  const poller = pollStream(
    { endpoint, accessKeyId: 'local' },
    STREAM_ARN,
    async (records) => {
      delivered.push(...records.map((record) => record.dynamodb!.SequenceNumber!));
    },
    new RecordingLog(),
    600_000,
  );
  running.push({ poller, server: streams.server });
  await poller.positioned;
  await expect.poll(streams.reads).toBe(1);
  return { streams, poller, delivered };
}

describe('the table stream reader', () => {
  it('reads the stream at once when nudged, without waiting for its idle interval', async () => {
    const { streams, poller, delivered } = await startReader();
    streams.write('1');
    poller.nudge();
    await expect.poll(() => delivered).toEqual(['1']);
    expect(streams.reads()).toBe(2);
  });

  it('reads again after a read that was under way when the nudge came, which may have missed the write', async () => {
    const { streams, poller, delivered } = await startReader();
    const release = streams.holdReads();
    poller.nudge();
    await expect.poll(streams.reads).toBe(2);
    // the write lands after the second read has seen the stream; the nudge that follows it asks for a third
    streams.write('2');
    poller.nudge();
    release();
    await expect.poll(() => delivered).toEqual(['2']);
    await expect.poll(streams.reads).toBe(3);
  });
});
