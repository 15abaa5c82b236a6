import { beforeEach, describe, expect, it } from 'vitest';
import { authenticateApiKey } from '../../../lambdas/domain/access/api-keys.js';
import { MAX_BATCH_LINES } from '../../../lambdas/domain/batches/batch.js';
import { createBatch } from '../../../lambdas/domain/batches/batches.js';
import { driveBatch, LINES_PER_CHUNK } from '../../../lambdas/domain/batches/driver.js';
import { jsonlLines } from '../../../lambdas/domain/batches/input-file.js';
import { createUpload } from '../../../lambdas/domain/jobs/uploads.js';
import { ApiError } from '../../../lambdas/domain/kernel/errors.js';
import { readBatchLine } from '../../../lambdas/http/inference/batch-line.js';
import { type InMemoryWorld, inMemoryWorld } from '../../support/in-memory/services.js';

// The batch driver on in-memory ports (docs/batches.md): one driver at a time, every line once.

let { services, faults, org } = {} as InMemoryWorld;

beforeEach(async () => {
  ({ services, faults, org } = await inMemoryWorld({ plan: 'enterprise' }));
});

const reader = (text: string, endpoint: Parameters<typeof readBatchLine>[1]) =>
  readBatchLine(text, endpoint, services.config.maxFileBytes);

async function batchOf(lines: readonly string[]) {
  const principal = await authenticateApiKey(services, org.testKey);
  const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
  const upload = await createUpload(services, principal, {
    content_type: 'application/jsonl',
    size_bytes: bytes.length,
  });
  await services.objects.put(`uploads/${org.organization.id}/${upload.upload_ref}`, bytes, 'application/jsonl');
  return createBatch(services, principal, { endpoint: 'pricing.vehicle', input_file: upload.upload_ref });
}

const valid = (n: number) =>
  JSON.stringify({ custom_id: `r${n}`, params: { vin: `WVWZZZ1KZ${String(n).padStart(8, '0')}` } });

describe('a JSONL input file', () => {
  it('reads CRLF and a last newline, refuses no line, too many lines and bytes that are not UTF-8', () => {
    expect(jsonlLines(new TextEncoder().encode('{"a":1}\r\n{"b":2}\n'))).toEqual(['{"a":1}', '{"b":2}']);
    expect(jsonlLines(new TextEncoder().encode('{"a":1}'))).toEqual(['{"a":1}']);
    for (const bad of [
      new Uint8Array(),
      new TextEncoder().encode('{}\n'.repeat(MAX_BATCH_LINES + 1)),
      new Uint8Array([0xff, 0xfe]),
    ]) {
      const refused = jsonlLines(bad);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).param).toBe('input_file');
    }
  });
});

describe('the batch driver', () => {
  it('admits every line once: a second driver is busy while the first holds the lease', async () => {
    const batch = await batchOf(Array.from({ length: 90 }, (_, n) => (n % 3 === 0 ? 'not json' : valid(n))));
    const [first, second] = await Promise.all([
      driveBatch(services, batch.id, reader),
      driveBatch(services, batch.id, reader),
    ]);
    expect([first, second].sort()).toEqual(['admitted', 'busy']);
    const lines = await services.batches.lines(batch.id, 0, 90);
    expect(lines.map((line) => line.line)).toEqual(Array.from({ length: 90 }, (_, n) => n));
    expect(lines.filter((line) => line.error?.code === 'invalid_json')).toHaveLength(30);
    const stored = (await services.batches.get(batch.id))!;
    expect(stored).toMatchObject({ cursor: 90, failed: 30, reserved: 60 * 10, lease_token: null });
    expect([...services.tables.jobs.values()].filter((job) => job.batch_id === batch.id)).toHaveLength(60);
  });

  it('resumes a driver that died mid-chunk from its cursor, skipping the lines it recorded', async () => {
    const batch = await batchOf(Array.from({ length: LINES_PER_CHUNK + 10 }, (_, n) => valid(n)));
    faults.arm('batch.after_line');
    await expect(driveBatch(services, batch.id, reader)).rejects.toThrow('injected crash');
    const died = (await services.batches.get(batch.id))!;
    expect(died.cursor).toBe(0);
    // a driver is refused while the dead one's lease lasts, and takes over once it has run out
    expect(await driveBatch(services, batch.id, reader)).toBe('busy');
    services.clock.advance((services.config.batchLeaseSeconds + 1) * 1000);
    expect(await driveBatch(services, batch.id, reader)).toBe('admitted');
    const jobs = [...services.tables.jobs.values()].filter((job) => job.batch_id === batch.id);
    expect(jobs).toHaveLength(LINES_PER_CHUNK + 10);
    expect((await services.batches.lines(batch.id, 0, LINES_PER_CHUNK + 10)).map((line) => line.job_id).sort()).toEqual(
      jobs.map((job) => job.id).sort(),
    );
  });
});
