import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DistributionModel, distributionHandler } from '../../../../local/assembly/distribution.js';

const READ_TIMEOUT_MS = 300;

/** A distribution whose one behaviour sends everything to an API origin with a short read timeout. */
const distribution: DistributionModel = {
  behaviours: [
    {
      pattern: null,
      origin: { kind: 'api', apiId: 'api', stage: 'prod', originPath: '/prod', readTimeoutMs: READ_TIMEOUT_MS },
      methods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      responseHeaders: [],
    },
  ],
};

let server: Server;
let base: string;
let releaseSlowOrigin: () => void = () => undefined;
let lateAnswerWritten: Promise<void>;

beforeAll(async () => {
  const slowOriginReleased = new Promise<void>((resolve) => {
    releaseSlowOrigin = resolve;
  });
  let lateAnswered: () => void = () => undefined;
  lateAnswerWritten = new Promise<void>((resolve) => {
    lateAnswered = resolve;
  });
  const api = async (_request: IncomingMessage, response: ServerResponse, path: string) => {
    if (path === '/slow') {
      await slowOriginReleased;
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"late":true}');
      lateAnswered();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
  };
  server = createServer(distributionHandler(distribution, new Map([['api', api]])));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  releaseSlowOrigin();
  await new Promise((resolve) => server.close(resolve));
});

describe('CloudFront played from the template', () => {
  it("answers 504 with CloudFront's own page when the origin outlives its read timeout, and drops the late answer", async () => {
    const started = Date.now();
    const answer = await fetch(`${base}/slow`);
    expect(answer.status).toBe(504);
    expect(answer.headers.get('x-cache')).toBe('Error from cloudfront');
    expect(await answer.text()).toContain('504 Gateway Timeout ERROR');
    expect(Date.now() - started).toBeGreaterThanOrEqual(READ_TIMEOUT_MS - 50);
    releaseSlowOrigin();
    await lateAnswerWritten;
    // the distribution still serves after the origin's late answer went nowhere
    expect((await fetch(`${base}/fast`)).status).toBe(200);
  });

  it('passes an answer that comes within the read timeout through', async () => {
    const answer = await fetch(`${base}/fast`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true });
  });
});
