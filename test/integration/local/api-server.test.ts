import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../../support/endpoint-calls.js';
import { type ApiResponse, call, expectEnvelope, formWith, imageFile } from '../../support/http.js';
import { sideEffects } from '../../support/invariants.js';
import { sharedTestService } from '../../support/service.js';
import { uploadFile } from '../../support/uploads.js';

let key: string;
const svc = sharedTestService();
beforeAll(async () => {
  key = svc.org.testKey;
});

function port(): number {
  return Number(new URL(svc.baseUrl).port);
}

/** Sends raw bytes on a socket and collects everything the server answers until it closes. */
function rawExchange(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port(), '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parseRaw(answer: string): { status: number; headers: Headers; body: any } {
  const [head, ...rest] = answer.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head!.split('\r\n');
  const headers = new Headers(
    headerLines.map(
      (line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string],
    ),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n2')) };
}

/**
 * Starts an upload that declares `declaredBytes` but sends only `sentBytes`, and resolves with the
 * answer: it can only arrive if the server answered without waiting for the rest of the body.
 */
function answerBeforeBody(
  path: string,
  headers: Record<string, string | number>,
  declaredBytes: number | null,
  sentBytes: number,
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port: port(),
        method: 'POST',
        path,
        headers: { ...headers, ...(declaredBytes === null ? {} : { 'Content-Length': declaredBytes }) },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const headersOut = new Headers();
          for (const [name, value] of Object.entries(incoming.headers))
            if (typeof value === 'string') headersOut.set(name, value);
          resolve({
            status: incoming.statusCode!,
            headers: headersOut,
            body: JSON.parse(Buffer.concat(chunks).toString()),
          });
          outgoing.destroy();
        });
      },
    );
    outgoing.on('error', (error) => {
      if (!outgoing.destroyed) reject(error);
    });
    outgoing.write(Buffer.alloc(sentBytes, 1));
  });
}

describe('names that are Object.prototype members are names like any other', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'query parameter %s is an unknown parameter (400), not a 500',
    async (name) => {
      expectEnvelope(
        await call(svc.baseUrl, 'GET', `/v1/jobs?${name}=1`, { key }),
        400,
        'invalid_request',
        'parameter_unknown',
        name,
      );
    },
  );

  it.each(['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__'])(
    'header %s is ignored like any unknown header',
    async (name) => {
      const answer = await call(svc.baseUrl, 'GET', '/v1/jobs', { key, headers: { [name]: '1' } });
      expect(answer.status).toBe(200);
      expect(answer.body.object).toBe('list');
    },
  );

  it('an unauthenticated request with such names is still a 401, decided before anything else', async () => {
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/jobs?__proto__=1', { headers: { toString: '1' } }),
      401,
      'authentication',
      'invalid_api_key',
    );
  });
});

describe('malformed paths and requests Node cannot parse', () => {
  it('malformed percent-encoding in a path parameter is a 404 for that parameter', async () => {
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/jobs/%E0%A4%A', { key }),
      404,
      'not_found',
      'job_not_found',
      'id',
    );
  });

  it('a bare LF in a header gets the envelope and a Request-Id', async () => {
    const answer = parseRaw(await rawExchange('GET /v1/jobs HTTP/1.1\r\nHost: x\nX-A: b\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('malformed_request');
    expect(answer.headers.get('request-id')).toMatch(/^req_/);
    expect(answer.body.error.request_id).toBe(answer.headers.get('request-id'));
  });

  it('oversized headers get a 431 envelope and a Request-Id', async () => {
    const answer = parseRaw(
      await rawExchange(`GET /v1/jobs HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(answer.status).toBe(431);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request', code: 'headers_too_large' });
    expect(answer.body.error.request_id).toBe(answer.headers.get('request-id'));
  });

  it('405 names the allowed methods in Allow', async () => {
    const answer = await call(svc.baseUrl, 'DELETE', '/v1/jobs', { key });
    expectEnvelope(answer, 405, 'invalid_request', 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe('GET');
    const cancel = await call(svc.baseUrl, 'GET', '/v1/jobs/job_x/cancel', { key });
    expect(cancel.headers.get('allow')).toBe('POST');
  });
});

describe('bodies: authenticated on the headers first, capped at what the route accepts', () => {
  it('an unauthenticated 100 MB upload is refused after its first 64 KB, and nothing is created', async () => {
    const before = await sideEffects(svc.services, svc.org.organization.id);
    const answer = await answerBeforeBody(
      '/v1/plate.read',
      { 'Content-Type': 'multipart/form-data; boundary=x' },
      100 * 1024 * 1024,
      64 * 1024,
    );
    expectEnvelope(answer, 401, 'authentication', 'invalid_api_key');
    expect(await sideEffects(svc.services, svc.org.organization.id)).toEqual(before);
  });

  it('a revoked-looking or malformed token on a management route is refused before the body too', async () => {
    const answer = await answerBeforeBody(
      '/mgmt/v1/api-keys',
      { 'Content-Type': 'application/json', Authorization: 'Bearer nope' },
      50 * 1024 * 1024,
      1024,
    );
    expectEnvelope(answer, 401, 'authentication', 'invalid_token');
  });

  // docs/internals/uploads.md: an oversized file is 400 invalid_request, whoever measures it
  it('a multipart body declared above the cap of a file endpoint is 400 file_too_large naming the file field, before a byte is read', async () => {
    const single = await answerBeforeBody(
      '/v1/plate.read',
      { 'Content-Type': 'multipart/form-data; boundary=x', Authorization: `Bearer ${key}` },
      400 * 1024 * 1024,
      0,
    );
    expectEnvelope(single, 400, 'invalid_request', 'file_too_large', 'image');
    const batch = await answerBeforeBody(
      '/v1/render.background',
      { 'Content-Type': 'multipart/form-data; boundary=x', Authorization: `Bearer ${key}` },
      400 * 1024 * 1024,
      0,
    );
    expectEnvelope(batch, 400, 'invalid_request', 'file_too_large', 'images');
  });

  it('a chunked multipart body that grows past the cap of a file endpoint is cut off with 400 file_too_large', async () => {
    const answer = await answerBeforeBody(
      '/v1/engine.detect',
      {
        'Content-Type': 'multipart/form-data; boundary=x',
        Authorization: `Bearer ${key}`,
        'Transfer-Encoding': 'chunked',
      },
      null,
      12 * 1024 * 1024,
    );
    expectEnvelope(answer, 400, 'invalid_request', 'file_too_large', 'audio');
  });

  it('any other body above the cap is 400 request_too_large (declared, or chunked and cut off)', async () => {
    const declared = await answerBeforeBody(
      '/v1/plate.read',
      { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      400 * 1024 * 1024,
      0,
    );
    expectEnvelope(declared, 400, 'invalid_request', 'request_too_large', null);
    const chunked = await answerBeforeBody(
      '/v1/uploads',
      { 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, 'Transfer-Encoding': 'chunked' },
      null,
      2 * 1024 * 1024,
    );
    expectEnvelope(chunked, 400, 'invalid_request', 'request_too_large', null);
  });
});

describe('one request, one identity', () => {
  it('a replayed stored error carries the replay request id in its body, as in Request-Id', async () => {
    const headers = { 'Idempotency-Key': `replay-error-${Date.now()}` };
    const first = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key,
      form: formWith('image', [imageFile()], { nonsense: '1' }),
      headers,
    });
    expectEnvelope(first, 400, 'invalid_request', 'parameter_unknown');
    const replay = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key,
      form: formWith('image', [imageFile()], { nonsense: '1' }),
      headers,
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectEnvelope(replay, 400, 'invalid_request', 'parameter_unknown');
    expect(replay.body.error.request_id).not.toBe(first.body.error.request_id);
  });

  it('a job id and its created come from one clock reading: a list by id is newest first by created', async () => {
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(svc.baseUrl, 'POST', '/v1/plate.read', { key, form: formWith('image', [imageFile(`order-${i}`)]) }),
      ),
    );
    for (const job of created) {
      expect(job.status).toBe(202);
      const idTime = Math.floor(
        Number(
          job.body.id
            .slice(4, 12)
            .split('')
            .reduce(
              (n: bigint, c: string) =>
                n * 58n + BigInt('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'.indexOf(c)),
              0n,
            ),
        ) / 1000,
      );
      expect(job.body.created).toBe(idTime);
    }
    const listed = await call(svc.baseUrl, 'GET', '/v1/jobs?limit=100', { key });
    const createdTimes = listed.body.data.map((job: { created: number }) => job.created);
    expect(createdTimes).toEqual([...createdTimes].sort((a: number, b: number) => b - a));
  });
});

describe('inputs are fingerprinted by their bytes', () => {
  it('the same bytes give the same test-mode result through input_ref as through multipart', async () => {
    const bytes = Buffer.alloc(4096, 'same-bytes');
    bytes[0] = 0xff;
    bytes[1] = 0xd8;
    const viaMultipart = await call(svc.baseUrl, 'POST', '/v1/vehicle.identify', {
      key,
      form: formWith('image', [new Blob([bytes], { type: 'image/jpeg' })]),
    });
    const ref = await uploadFile(svc.baseUrl, key, 'image/jpeg', bytes, 'car.jpg');
    const viaRef = await call(svc.baseUrl, 'POST', '/v1/vehicle.identify', { key, json: { input_ref: ref } });
    expect(viaMultipart.status).toBe(202);
    expect(viaRef.status).toBe(202);
    const [a, b] = await Promise.all([
      settled(svc.baseUrl, key, viaMultipart.body.id),
      settled(svc.baseUrl, key, viaRef.body.id),
    ]);
    expect(a.body.status).toBe('succeeded');
    expect(b.body.result).toEqual(a.body.result);
    const other = Buffer.from(bytes);
    other[100] = 7;
    const viaOther = await call(svc.baseUrl, 'POST', '/v1/vehicle.identify', {
      key,
      json: { input_ref: await uploadFile(svc.baseUrl, key, 'image/jpeg', other, 'car.jpg') },
    });
    expect((await settled(svc.baseUrl, key, viaOther.body.id)).body.result).not.toEqual(a.body.result);
  });
});

describe('public URLs in parameters (docs/internals/uploads.md)', () => {
  it('a public http:// logo is accepted', async () => {
    const answer = await call(svc.baseUrl, 'POST', '/v1/render.plate', {
      key,
      form: formWith('image', [imageFile()], { mode: 'logo', logo: 'http://cdn.example.com/logo.png' }),
    });
    expect(answer.status).toBe(202);
  });
});
