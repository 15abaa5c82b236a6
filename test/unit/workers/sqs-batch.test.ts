import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { InjectedFault } from '../../../lambdas/domain/kernel/faults.js';
import type { Log } from '../../../lambdas/domain/ports/services.js';
import { processSqsBatch } from '../../../lambdas/workers/sqs-batch.js';

function recordingLog() {
  const lines: Array<{ level: string; message: string; extra?: Record<string, unknown> }> = [];
  const log: Log = {
    info: (message, extra) => lines.push({ level: 'INFO', message, extra }),
    warn: (message, extra) => lines.push({ level: 'WARN', message, extra }),
    error: (message, extra) => lines.push({ level: 'ERROR', message, extra }),
  };
  return { log, lines };
}

const batch = (...bodies: string[]): SQSEvent =>
  ({ Records: bodies.map((body, i) => ({ messageId: `m${i + 1}`, body })) }) as never;

/** What a consumer does with a body: `ok` and `drop` succeed (a dropped message is not a failure), `fail` throws. */
async function consume(log: Log, body: string): Promise<void> {
  if (body === 'fail') throw new Error('downstream refused');
  if (body === 'fault') throw new InjectedFault('worker.crash');
  if (body === 'drop') log.warn('dropping malformed message', { body });
}

describe('processSqsBatch (the SQS partial-batch answer)', () => {
  it('reports only the records whose handler threw, each logged with its message id', async () => {
    const { log, lines } = recordingLog();
    const answer = await processSqsBatch(batch('ok', 'fail', 'drop', 'ok'), log, 'message failed', (record) =>
      consume(log, record.body),
    );
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
    expect(lines).toEqual([
      { level: 'WARN', message: 'dropping malformed message', extra: { body: 'drop' } },
      {
        level: 'ERROR',
        message: 'message failed',
        extra: { message_id: 'm2', error: expect.objectContaining({ message: 'downstream refused' }) },
      },
    ]);
  });

  it('answers a batch that failed whole with every record, instead of throwing', async () => {
    const { log, lines } = recordingLog();
    const answer = await processSqsBatch(batch('fail', 'fault'), log, 'message failed', (record) =>
      consume(log, record.body),
    );
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }] });
    expect(lines.map((line) => `${line.level} ${line.message} ${line.extra?.message_id}`)).toEqual([
      'ERROR message failed m1',
      'WARN injected fault m2',
    ]);
  });

  it('answers an empty failure list when every record was handled or dropped', async () => {
    const { log } = recordingLog();
    expect(
      await processSqsBatch(batch('ok', 'drop'), log, 'message failed', (record) => consume(log, record.body)),
    ).toEqual({ batchItemFailures: [] });
  });

  it('runs the records concurrently: a slow record holds up no other', async () => {
    const { log } = recordingLog();
    const started: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answer = processSqsBatch(batch('slow', 'quick'), log, 'message failed', async (record) => {
      started.push(record.body);
      if (record.body === 'slow') await gate;
    });
    await expect.poll(() => started).toEqual(['slow', 'quick']);
    release();
    expect(await answer).toEqual({ batchItemFailures: [] });
  });
});
