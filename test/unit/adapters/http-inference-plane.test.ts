import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelUrlOf, HttpInferencePlane } from '../../../lambdas/adapters/http-inference-plane.js';
import { AdjustableClock, epochSeconds } from '../../../lambdas/domain/kernel/clock.js';
import { verifySignatureHeader } from '../../../lambdas/domain/kernel/signatures.js';
import type { Log } from '../../../lambdas/domain/ports/services.js';
import { liveJobRecord } from '../../support/live-job.js';

const SECRET = 'icsec_plane_test';
const quiet: Log = { info: () => undefined, warn: () => undefined, error: () => undefined };

const job = liveJobRecord('job_1pAGKB6qxzhn5SCTcW14Bt', { params: { return_crops: true } });

interface Received {
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('HttpInferencePlane', () => {
  let server: Server;
  let url: string;
  let answer = 202;
  const received: Received[] = [];
  const clock = new AdjustableClock();

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ url: request.url, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(answer, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jobs`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const plane = (overrides: Partial<ConstructorParameters<typeof HttpInferencePlane>[0]> = {}) =>
    new HttpInferencePlane({
      url,
      callbackUrl: 'https://api.example/prod/internal/v1/completions',
      bucket: 'ais-files',
      secret: () => SECRET,
      clock,
      log: quiet,
      ...overrides,
    });

  it('POSTs the job, its input object keys, where to write outputs and the callback URL, signed; 2xx is acceptance', async () => {
    answer = 202;
    expect(await plane().submit(job)).toBe(true);
    const request = received.at(-1)!;
    expect(request.headers['content-type']).toBe('application/json');
    expect(
      verifySignatureHeader(
        request.headers['x-inference-signature'] as string,
        request.body,
        SECRET,
        epochSeconds(clock),
      ),
    ).toBeNull();
    expect(JSON.parse(request.body)).toEqual({
      job_id: job.id,
      endpoint: 'plate.read',
      model_version: 'plate-reader-v6@2026-07-01',
      params: { return_crops: true },
      inputs: [
        {
          index: 0,
          object_key: job.inputs[0]!.object_key,
          content_type: 'image/jpeg',
          size_bytes: 2048,
          sha256: 'ab'.repeat(32),
          filename: 'car.jpg',
        },
      ],
      bucket: 'ais-files',
      output_prefix: `outputs/${job.org_id}/${job.id}/`,
      callback_url: 'https://api.example/prod/internal/v1/completions',
    });
  });

  it('sends no signature without a secret', async () => {
    expect(await plane({ secret: () => null }).submit(job)).toBe(true);
    expect(received.at(-1)!.headers).not.toHaveProperty('x-inference-signature');
  });

  it('treats any other answer, or none, as a refusal and never throws', async () => {
    for (const status of [300, 400, 429, 500, 503]) {
      answer = status;
      expect(await plane().submit(job), String(status)).toBe(false);
    }
    expect(await plane({ url: 'http://127.0.0.1:1/jobs' }).submit(job)).toBe(false);
    expect(await plane({ url: 'not a url' }).submit(job)).toBe(false);
  });

  it('cancels at <plane URL>/cancel, signed, naming the job and why; a refusal or no answer never throws', async () => {
    answer = 200;
    await plane().cancel(job);
    const request = received.at(-1)!;
    expect(request.url).toBe('/jobs/cancel');
    expect(
      verifySignatureHeader(
        request.headers['x-inference-signature'] as string,
        request.body,
        SECRET,
        epochSeconds(clock),
      ),
    ).toBeNull();
    expect(JSON.parse(request.body)).toEqual({ job_id: job.id, reason: 'deadline_exceeded' });
    answer = 500;
    await expect(plane().cancel(job)).resolves.toBeUndefined();
    await expect(plane({ url: 'http://127.0.0.1:1/jobs' }).cancel(job)).resolves.toBeUndefined();
    expect(cancelUrlOf('https://plane.example/jobs/')).toBe('https://plane.example/jobs/cancel');
    expect(cancelUrlOf('https://plane.example/submit?region=eu')).toBe('https://plane.example/submit/cancel?region=eu');
  });
});
