import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../lambdas/domain/kernel/clock.js';
import type { ObjectStore } from '../../../lambdas/domain/ports/jobs.js';
import { fixtureModel } from '../../../lambdas/planes/fixture-model.js';
import { BundledInferencePlane } from '../../../local/bundled-inference-plane.js';
import { liveJobRecord } from '../../support/live-job.js';

// a bundled plane of the local runtime told to stop a job (its deadline passed, docs/internals/inference-plane.md,
// "Cancellation"): the job's work is abandoned and no callback is sent; other jobs are untouched.

const job = (id: string) => liveJobRecord(id, { status: 'processing', started_at: 1_760_000_000 });

describe('BundledInferencePlane.cancel', () => {
  const callbacks: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk));
    request.on('end', () => {
      callbacks.push((JSON.parse(body) as { job_id: string }).job_id);
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  let baseUrl: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('abandons the canceled job, sends no callback for it, and still reports the others', async () => {
    const objects = {
      head: async () => null,
      sha256: async () => null,
      put: async () => undefined,
    } as unknown as ObjectStore;
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const plane = new BundledInferencePlane({
      model: fixtureModel,
      services: { objects, clock: systemClock, log },
      baseUrl,
      bucket: 'b',
      secret: 'icsec_test',
      startDelayMs: 300,
    });
    const [kept, canceled] = [job('job_1pAGKB6qxzhn5SCTcW14Bt'), job('job_2pAGKB6qxzhn5SCTcW14Bt')];
    expect(await plane.submit(kept)).toBe(true);
    expect(await plane.submit(canceled)).toBe(true);
    await plane.cancel(canceled);
    await expect.poll(() => callbacks, { timeout: 10_000 }).toContain(kept.id);
    await plane.stop();
    expect(callbacks).not.toContain(canceled.id);
    expect(plane.canceled).toEqual([canceled.id]);
  });
});
