import { describe, expect, it } from 'vitest';
import { call, formWith, imageFile } from '../../../support/http.js';
import { sharedTestService } from '../../../support/service.js';

// The local file store checks presigned URLs as S3 does (docs/internals/uploads.md, "The local file store"):
// a forged, expired or mismatching request gets S3's 403 and XML error, never the object.

const svc = sharedTestService();

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(2998, 'signed-upload')]);

/** An upload of JPEG's type and size, as the API declares it. */
async function createUpload(): Promise<{ url: string; upload_ref: string; headers: Record<string, string> }> {
  const created = await call(svc.baseUrl, 'POST', '/v1/uploads', {
    key: svc.org.testKey,
    json: { content_type: 'image/jpeg', size_bytes: JPEG.length },
  });
  expect(created.status).toBe(201);
  return created.body;
}

const stored = (ref: string) => svc.services.objects.head(`uploads/${svc.org.organization.id}/${ref}`);

/** S3's error document: `<Error><Code>…</Code><Message>…</Message>…</Error>`, with its request id header. */
async function expectS3Error(response: Response, status: number, code: string, message?: string): Promise<string> {
  const body = await response.text();
  expect(response.status, body).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/xml');
  expect(response.headers.get('x-amz-request-id')).toMatch(/^[0-9A-F]{16}$/);
  expect(body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Error><Code>/);
  expect(body).toContain(`<Code>${code}</Code>`);
  if (message) expect(body).toContain(`<Message>${message}</Message>`);
  expect(body).toMatch(/<RequestId>[0-9A-F]{16}<\/RequestId><HostId>[^<]+<\/HostId><\/Error>$/);
  return body;
}

function withQuery(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
}

/** A signed result file of a finished job: the produced image of a render. */
async function signedResultFile(): Promise<{ url: string; bytes: Buffer }> {
  const job = await call(svc.baseUrl, 'POST', '/v1/render.enhance?wait=true', {
    key: svc.org.testKey,
    form: formWith('image', [imageFile('signed-result')]),
  });
  expect(job.body.status).toBe('succeeded');
  const url = job.body.result.image.url as string;
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return { url, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('presigned PUTs of uploads', () => {
  it('the declared type and size land, and the job takes the upload', async () => {
    const upload = await createUpload();
    const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: JPEG });
    expect(put.status).toBe(200);
    expect(await stored(upload.upload_ref)).toMatchObject({ contentType: 'image/jpeg', sizeBytes: JPEG.length });
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.testKey,
      json: { input_ref: upload.upload_ref },
    });
    expect(job.status).toBe(202);
  });

  it('another Content-Type than declared: 403 SignatureDoesNotMatch, nothing stored', async () => {
    const upload = await createUpload();
    const put = await fetch(upload.url, { method: 'PUT', headers: { 'Content-Type': 'text/html' }, body: JPEG });
    const body = await expectS3Error(put, 403, 'SignatureDoesNotMatch');
    // S3 shows what it signed: the type the request carried
    expect(body).toContain('content-type:text/html');
    expect(await stored(upload.upload_ref)).toBeNull();
  });

  it('another size than declared, larger or smaller: 403 SignatureDoesNotMatch, nothing stored', async () => {
    for (const bytes of [Buffer.concat([JPEG, Buffer.alloc(1)]), JPEG.subarray(0, 1000)]) {
      const upload = await createUpload();
      const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
      await expectS3Error(put, 403, 'SignatureDoesNotMatch');
      expect(await stored(upload.upload_ref)).toBeNull();
    }
  });

  it('a forged signature, or the URL pointed at another key: 403 SignatureDoesNotMatch', async () => {
    const upload = await createUpload();
    const signature = new URL(upload.url).searchParams.get('X-Amz-Signature')!;
    const forged = withQuery(upload.url, 'X-Amz-Signature', `${signature.slice(0, -4)}beef`);
    await expectS3Error(
      await fetch(forged, { method: 'PUT', headers: upload.headers, body: JPEG }),
      403,
      'SignatureDoesNotMatch',
    );
    const elsewhere = upload.url.replace(upload.upload_ref, 'upl_1111111111111111');
    await expectS3Error(
      await fetch(elsewhere, { method: 'PUT', headers: upload.headers, body: JPEG }),
      403,
      'SignatureDoesNotMatch',
    );
    // a longer life written into the URL is not signed either
    await expectS3Error(
      await fetch(withQuery(upload.url, 'X-Amz-Expires', '604800'), {
        method: 'PUT',
        headers: upload.headers,
        body: JPEG,
      }),
      403,
      'SignatureDoesNotMatch',
    );
    expect(await stored(upload.upload_ref)).toBeNull();
  });

  it('an expired URL: 403 AccessDenied, Request has expired', async () => {
    // signed two hours ago with its one-hour life: expired now, by the store's own clock
    svc.clock.advance(-2 * 3600_000);
    let upload: Awaited<ReturnType<typeof createUpload>>;
    try {
      upload = await createUpload();
    } finally {
      svc.clock.reset();
    }
    const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: JPEG });
    const body = await expectS3Error(put, 403, 'AccessDenied', 'Request has expired');
    expect(body).toContain('<X-Amz-Expires>3600</X-Amz-Expires>');
    expect(body).toMatch(/<Expires>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/Expires><ServerTime>/);
    expect(await stored(upload.upload_ref)).toBeNull();
  });
});

describe('signed GETs of result files', () => {
  it('the signed URL serves the file; the bare path, a forged or re-pointed signature, or another method does not', async () => {
    const { url, bytes } = await signedResultFile();
    expect(bytes.length).toBeGreaterThan(0);
    const bare = new URL(url);
    bare.search = '';
    const refused = [
      [await fetch(bare), 'AccessDenied'],
      [await fetch(withQuery(url, 'X-Amz-Signature', '0'.repeat(64))), 'SignatureDoesNotMatch'],
      [await fetch(url.replace('/image.png', '/other.png')), 'SignatureDoesNotMatch'],
      [await fetch(url, { method: 'DELETE' }), 'SignatureDoesNotMatch'],
    ] as const;
    for (const [response, code] of refused) {
      const body = await expectS3Error(response, 403, code);
      expect(Buffer.from(body).includes(bytes)).toBe(false);
    }
    // the DELETE removed nothing
    expect((await fetch(url)).status).toBe(200);
    // a HEAD is refused without a body, as S3 answers it
    const head = await fetch(bare, { method: 'HEAD' });
    expect(head.status).toBe(403);
    expect(await head.text()).toBe('');
  });

  it('an expired URL is refused', async () => {
    const { url } = await signedResultFile();
    const key = decodeURIComponent(new URL(url).pathname.split('/').slice(2).join('/'));
    svc.clock.advance(-2 * 3600_000);
    const old = await svc.services.objects.signedGetUrl(key, 3600).finally(() => svc.clock.reset());
    await expectS3Error(await fetch(old), 403, 'AccessDenied', 'Request has expired');
  });

  it('a request signed with an Authorization header of an unknown key or a wrong signature is refused', async () => {
    const { url } = await signedResultFile();
    const bare = new URL(url);
    bare.search = '';
    const amzDate = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const authorization = (accessKeyId: string) =>
      `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'a'.repeat(64)}`;
    const headers = (accessKeyId: string) => ({
      Authorization: authorization(accessKeyId),
      'x-amz-date': amzDate,
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
    });
    await expectS3Error(await fetch(bare, { headers: headers('AKIDNOBODY') }), 403, 'InvalidAccessKeyId');
    await expectS3Error(await fetch(bare, { headers: headers('local') }), 403, 'SignatureDoesNotMatch');
  });
});
