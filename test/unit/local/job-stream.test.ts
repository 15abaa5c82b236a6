import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import type { WorkLane } from '../../../lambdas/domain/ports/jobs.js';
import { jobStreamPipe } from '../../../lib/job-stream-definition.js';
import { jobStreamPipes } from '../../../local/job-stream.js';
import type { StreamRecord } from '../../../local/stream-pipe.js';
import { RecordingLog } from '../../support/in-memory/services.js';

/**
 * The job stream's Pipes as the local runtime and the in-memory ports run them, from the one
 * definition the CDK stack deploys (lib/job-stream-definition.ts): the filter, the batches, the
 * retries and the dead-letter queue.
 */
const shard = { streamArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/1', shardId: 'shardId-1' };
let sequence = 0;

function record(eventName: string, item: Record<string, unknown>): StreamRecord {
  sequence += 1;
  return {
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      NewImage: marshall(item),
      SequenceNumber: String(sequence),
      ApproximateCreationDateTime: 1_700_000_000,
    },
  };
}
const jobItem = (id: string, lane: WorkLane) => ({ pk: `JOB#${id}`, sk: '#', id, work_lane: lane, status: 'queued' });

function recordingPipes(refuse: (lane: WorkLane) => boolean = () => false) {
  const sent: Record<WorkLane, string[][]> = { standard: [], fast: [] };
  const attempts: Record<WorkLane, number> = { standard: 0, fast: 0 };
  const deadLetters: string[] = [];
  const pipes = jobStreamPipes({
    send: async (lane, messages) => {
      attempts[lane] += 1;
      if (refuse(lane)) throw new Error('AWS.SimpleQueueService.NonExistentQueue');
      sent[lane].push(messages);
    },
    deadLetter: async (message) => {
      deadLetters.push(message);
    },
    log: new RecordingLog(),
    retryDelayMs: () => 0,
  });
  return { pipes, sent, attempts, deadLetters };
}

describe('the job stream’s Pipes', () => {
  it('send the id of each inserted job to its lane’s queue, and nothing for other writes', async () => {
    const { pipes, sent } = recordingPipes();
    await pipes(
      [
        record('INSERT', jobItem('job_fast', 'fast')),
        record('INSERT', jobItem('job_standard', 'standard')),
        // a job's later writes, another item's insert, a removal: none is an admission
        record('MODIFY', { ...jobItem('job_fast', 'fast'), status: 'succeeded' }),
        record('INSERT', { pk: 'ORG#org_1', sk: 'LEDGER#1', id: 'led_1', work_lane: 'fast' }),
        { eventName: 'REMOVE', dynamodb: { Keys: marshall({ pk: 'JOB#job_fast', sk: '#' }), SequenceNumber: '99' } },
      ],
      shard,
    );
    expect(sent).toEqual({ fast: [['{"job_id": "job_fast"}']], standard: [['{"job_id": "job_standard"}']] });
  });

  it('send at most the declared batch size at once, in stream order', async () => {
    const { pipes, sent } = recordingPipes();
    const ids = Array.from({ length: 25 }, (_, n) => `job_${String(n).padStart(2, '0')}`);
    await pipes(
      ids.map((id) => record('INSERT', jobItem(id, 'standard'))),
      shard,
    );
    const { batchSize } = jobStreamPipe('standard');
    expect(sent.standard.map((batch) => batch.length)).toEqual([batchSize, batchSize, 25 - 2 * batchSize]);
    expect(sent.standard.flat().map((message) => (JSON.parse(message) as { job_id: string }).job_id)).toEqual(ids);
  });

  it('put a batch they cannot send in the dead-letter queue after the declared retries, and go on with the next', async () => {
    let refusing = true;
    const { pipes, sent, attempts, deadLetters } = recordingPipes((lane) => lane === 'fast' && refusing);
    await pipes([record('INSERT', jobItem('job_lost', 'fast')), record('INSERT', jobItem('job_other', 'fast'))], shard);
    const { maximumRetryAttempts } = jobStreamPipe('fast');
    expect(attempts.fast).toBe(1 + maximumRetryAttempts);
    expect(deadLetters.map((message) => JSON.parse(message))).toEqual([
      expect.objectContaining({
        requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 1 + maximumRetryAttempts },
        DDBStreamBatchInfo: expect.objectContaining({
          shardId: shard.shardId,
          streamArn: shard.streamArn,
          batchSize: 2,
          startSequenceNumber: String(sequence - 1),
          endSequenceNumber: String(sequence),
        }),
      }),
    ]);
    refusing = false;
    await pipes([record('INSERT', jobItem('job_next', 'fast'))], shard);
    expect(sent.fast).toEqual([['{"job_id": "job_next"}']]);
  });
});
