import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { API_CONTENT_SECURITY_POLICY, pageContentSecurityPolicy } from '../../../lambdas/http/security-headers.js';
import { REFUSED_BODY_DRAIN_BYTES, REFUSED_BODY_DRAIN_MS } from '../../../local/api-server.js';
import { call, expectEnvelope, formWith } from '../../support/http.js';
import { sharedTestService } from '../../support/service.js';

let key: string;
const svc = sharedTestService();
beforeAll(async () => {
  key = svc.org.testKey;
});

function expectCommonHeaders(headers: Headers, what: string): void {
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('x-frame-options'), what).toBe('DENY');
  expect(headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(headers.get('content-security-policy'), what).toContain("frame-ancestors 'none'");
}

describe('browser security headers on every answer of the local runtime', () => {
  it('pages (documentation, dashboard, error pages, local payment pages) carry the page policy: only the origin, no inline script, never framed', async () => {
    const objectOrigin = new URL(inject('standIns').s3).origin;
    for (const path of ['/docs', '/docs/guides/webhooks', '/docs/reference', '/dashboard', '/dashboard/jobs/job_x']) {
      const response = await fetch(`${svc.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expectCommonHeaders(response.headers, path);
      const policy = response.headers.get('content-security-policy')!;
      expect(policy, path).toBe(pageContentSecurityPolicy([objectOrigin]));
      expect(policy).toContain("script-src 'self';");
      expect(policy).not.toMatch(/script-src[^;]*unsafe/);
    }
    const errorPage = await fetch(`${svc.baseUrl}/docs/errors/job_not_found`);
    expect(errorPage.headers.get('content-type')).toContain('text/html');
    expectCommonHeaders(errorPage.headers, 'error page');
    expect(errorPage.headers.get('content-security-policy')).toBe(pageContentSecurityPolicy());
  });

  it('scripts, styles and the OpenAPI document of the site carry nosniff and the locked-down policy', async () => {
    for (const path of ['/docs/assets/site.js', '/docs/reference/openapi.json']) {
      const response = await fetch(`${svc.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expectCommonHeaders(response.headers, path);
      expect(response.headers.get('content-security-policy'), path).toBe(API_CONTENT_SECURITY_POLICY);
    }
  });

  it('JSON answers of the routes, successes and errors alike, carry them too', async () => {
    const answers = [
      await call(svc.baseUrl, 'GET', '/v1/endpoints', { key }),
      await call(svc.baseUrl, 'GET', '/v1/openapi.json'),
      await call(svc.baseUrl, 'POST', '/v1/plate.read', {
        key,
        form: formWith('image', [new Blob([Buffer.from([0xff, 0xd8, 0xff, 1])], { type: 'image/jpeg' })]),
      }),
      // a route's own error, the adapter's 401, and a path that matches no route
      await call(svc.baseUrl, 'GET', '/v1/jobs/job_missing', { key }),
      await call(svc.baseUrl, 'GET', '/v1/jobs'),
      await call(svc.baseUrl, 'GET', '/v1/nothing-here', { key }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 202, 404, 401, 404]);
    for (const answer of answers) {
      expectCommonHeaders(answer.headers, `${answer.status}`);
      expect(answer.headers.get('content-security-policy')).toBe(API_CONTENT_SECURITY_POLICY);
    }
  });

  it('even a request Node cannot parse is answered with them', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(svc.baseUrl).port), '127.0.0.1', () =>
        socket.write('GET /v1/jobs HTTP/1.1\nHost: x\n\n'),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toContain('X-Content-Type-Options: nosniff');
    expect(answer).toContain(`Content-Security-Policy: ${API_CONTENT_SECURITY_POLICY}`);
  });
});

interface WholeSend {
  status?: number;
  headers?: Headers;
  body?: any;
  /** what the client saw go wrong, if anything */
  error?: string;
  sent: number;
}

/** Sends `bytes` of body as fast as the server takes them; resolves once the exchange is over, with the answer and any error the client saw. */
function sendWhole(path: string, headers: Record<string, string | number>, bytes: number): Promise<WholeSend> {
  return new Promise((resolve) => {
    const result: WholeSend = { sent: 0 };
    const outgoing = httpRequest({
      host: '127.0.0.1',
      port: Number(new URL(svc.baseUrl).port),
      method: 'POST',
      path,
      headers,
      agent: false,
    });
    outgoing.on('response', (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        result.status = incoming.statusCode!;
        result.headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers))
          if (typeof value === 'string') result.headers.set(name, value);
        result.body = JSON.parse(Buffer.concat(chunks).toString());
      });
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      result.error = error.code ?? error.message;
    });
    outgoing.on('close', () => resolve(result));
    const chunk = Buffer.alloc(256 * 1024, 7);
    const pump = () => {
      while (result.sent < bytes && !outgoing.destroyed) {
        result.sent += chunk.length;
        if (!outgoing.write(chunk)) {
          outgoing.once('drain', pump);
          return;
        }
      }
      outgoing.end();
    };
    pump();
  });
}

describe('a refused body is answered, not reset', () => {
  it('a client that sends a whole 12 MB multipart file to a 10 MB endpoint reads its 400 file_too_large, as fetch and curl do', async () => {
    const big = new Blob([Buffer.alloc(12 * 1024 * 1024, 1)], { type: 'image/jpeg' });
    const answer = await call(svc.baseUrl, 'POST', '/v1/plate.read', { key, form: formWith('image', [big]) });
    expectEnvelope(answer, 400, 'invalid_request', 'file_too_large', 'image');
  });

  it('the same holds for a body declared too large, a chunked one that grows too large, and an unauthenticated one', async () => {
    const multipart = 'multipart/form-data; boundary=x';
    const declared = await sendWhole(
      '/v1/plate.read',
      { 'Content-Type': multipart, Authorization: `Bearer ${key}`, 'Content-Length': 30 * 1024 * 1024 },
      30 * 1024 * 1024,
    );
    const chunked = await sendWhole(
      '/v1/plate.read',
      { 'Content-Type': multipart, Authorization: `Bearer ${key}`, 'Transfer-Encoding': 'chunked' },
      30 * 1024 * 1024,
    );
    const unauthenticated = await sendWhole(
      '/v1/plate.read',
      { 'Content-Type': multipart, 'Content-Length': 8 * 1024 * 1024 },
      8 * 1024 * 1024,
    );
    expect([declared, chunked, unauthenticated].map((answer) => answer.error ?? answer.status)).toEqual([
      400, 400, 401,
    ]);
    expectEnvelope(declared as never, 400, 'invalid_request', 'file_too_large', 'image');
    expectEnvelope(chunked as never, 400, 'invalid_request', 'file_too_large', 'image');
    expectEnvelope(unauthenticated as never, 401, 'authentication', 'invalid_api_key');
  });

  it('a client that keeps sending past the drain bound, ignoring the answer, is cut off rather than read forever', async () => {
    const endless = 1024 * 1024 * 1024;
    const started = Date.now();
    const outcome = await new Promise<{ written: number; answer: string }>((resolve) => {
      let written = 0;
      let answer = '';
      const socket = connect(Number(new URL(svc.baseUrl).port), '127.0.0.1', () => {
        socket.write(
          `POST /v1/uploads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${endless}\r\n\r\n`,
        );
        const chunk = Buffer.alloc(256 * 1024, 7);
        const pump = () => {
          while (written < endless && !socket.destroyed) {
            written += chunk.length;
            if (!socket.write(chunk)) {
              socket.once('drain', pump);
              return;
            }
          }
        };
        pump();
      });
      socket.on('data', (chunk) => {
        answer += chunk.toString();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ written, answer }));
    });
    const elapsedMs = Date.now() - started;
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 401/);
    // cut off at whichever bound it reached first: the bytes, or (on a busy machine, sending slower) the time
    if (elapsedMs < REFUSED_BODY_DRAIN_MS) expect(outcome.written).toBeGreaterThan(REFUSED_BODY_DRAIN_BYTES);
    expect(outcome.written).toBeLessThan(REFUSED_BODY_DRAIN_BYTES + 32 * 1024 * 1024);
  });
});
