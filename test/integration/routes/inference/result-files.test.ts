import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, call, formWith, imageFile } from '../../../support/http.js';
import { download, gifInfo, pngInfo } from '../../../support/images.js';
import { sharedTestService } from '../../../support/service.js';
import { verifyPresignedUrl } from '../../../support/sigv4.js';
import { uploadFile } from '../../../support/uploads.js';

/**
 * Produced files: stored in S3, returned as signed GET URLs with `expires_at`, re-signed on
 * every read of the job. The S3 stand-in serves an object whatever the signature says, so
 * signatures are checked here with an independent SigV4 computation under the runtime's
 * credentials (and in test/unit/adapters/s3-object-store.test.ts against tampering).
 */
let key: string;

const svc = sharedTestService();
beforeAll(async () => {
  key = svc.org.testKey;
});

interface SignedFile {
  url: string;
  expires_at: number;
  content_type: string;
  width: number | null;
  height: number | null;
  size_bytes: number;
}

const getJob = (id: string): Promise<ApiResponse> => call(svc.baseUrl, 'GET', `/v1/jobs/${id}`, { key });
const nowSeconds = () => Math.floor(svc.clock.nowMs() / 1000);

async function expectDownloadable(file: SignedFile, kind: 'png' | 'gif'): Promise<Buffer> {
  const fetched = await download(file.url);
  expect(fetched.status).toBe(200);
  expect(fetched.contentType).toBe(file.content_type);
  expect(fetched.bytes.length).toBe(file.size_bytes);
  const info = kind === 'png' ? pngInfo(fetched.bytes) : gifInfo(fetched.bytes);
  expect(info, `a real ${kind.toUpperCase()}`).not.toBeNull();
  expect([info!.width, info!.height]).toEqual([file.width, file.height]);
  return fetched.bytes;
}

describe('result files', () => {
  it('render.background: image and cutout download as real PNGs of the declared type, size and dimensions', async () => {
    const job = await call(svc.baseUrl, 'POST', '/v1/render.background?wait=true', {
      key,
      form: formWith('images', [imageFile('p1'), imageFile('p2')], { return_cutout: 'true', aspect_ratio: '16:9' }),
    });
    expect(job.body.status).toBe('succeeded');
    for (const entry of job.body.result.images) {
      expect(entry.image).toMatchObject({ content_type: 'image/png', width: 64, height: 36 });
      await expectDownloadable(entry.image, 'png');
      const cutout = await expectDownloadable(entry.cutout, 'png');
      expect(pngInfo(cutout)!.colorType).toBe(6);
    }
  });

  it('vehicle.segment: mask and cutout download as real PNGs', async () => {
    const job = await call(svc.baseUrl, 'POST', '/v1/vehicle.segment?wait=true', {
      key,
      form: formWith('image', [imageFile('segment')], { output: 'both' }),
    });
    expect(job.body.status).toBe('succeeded');
    const { mask, cutout } = job.body.result as { mask: SignedFile; cutout: SignedFile };
    expect(pngInfo(await expectDownloadable(mask, 'png'))!.colorType).toBe(0);
    expect(pngInfo(await expectDownloadable(cutout, 'png'))!.colorType).toBe(6);
  });

  it('render.360: the spin preview downloads as a real GIF', async () => {
    const refs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        uploadFile(svc.baseUrl, key, 'image/jpeg', Buffer.alloc(1500 + i, `spin${i}`), `spin-${i}.jpg`),
      ),
    );
    const created = await call(svc.baseUrl, 'POST', '/v1/render.360', { key, json: { input_refs: refs } });
    expect(created.status).toBe(202);
    let job: ApiResponse | null = null;
    for (let attempt = 0; attempt < 100 && job?.body.status !== 'succeeded'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      svc.clock.advance(1000); // one poll a second is the limit
      job = await getJob(created.body.id);
    }
    expect(job!.body.status).toBe('succeeded');
    const preview = job!.body.result.preview as SignedFile;
    expect(preview.content_type).toBe('image/gif');
    await expectDownloadable(preview, 'gif');
  });

  it('GET /v1/jobs/{id} re-signs on every read: new signature and later expiry as time moves, each valid for signedUrlTtlSeconds', async () => {
    const ttl = svc.services.config.signedUrlTtlSeconds;
    const credentials = svc.services.infrastructure.credentials!;
    const created = await call(svc.baseUrl, 'POST', '/v1/render.background?wait=true', {
      key,
      form: formWith('images', [imageFile('resign')]),
    });
    expect(created.body.status).toBe('succeeded');
    svc.clock.advance(2000);

    const first = await getJob(created.body.id);
    const a = first.body.result.images[0].image as SignedFile;
    const signedAtA = nowSeconds();
    svc.clock.advance(90_000);
    const second = await getJob(created.body.id);
    const b = second.body.result.images[0].image as SignedFile;
    const signedAtB = nowSeconds();

    expect(a.expires_at).toBeGreaterThanOrEqual(signedAtA + ttl - 1);
    expect(a.expires_at).toBeLessThanOrEqual(signedAtA + ttl);
    expect(b.expires_at - a.expires_at).toBeGreaterThanOrEqual(89);
    expect(b.expires_at - a.expires_at).toBeLessThanOrEqual(91);
    const query = (file: SignedFile) => new URL(file.url).searchParams;
    expect(query(b).get('X-Amz-Date')).not.toBe(query(a).get('X-Amz-Date'));
    expect(query(b).get('X-Amz-Signature')).not.toBe(query(a).get('X-Amz-Signature'));
    expect(query(a).get('X-Amz-Expires')).toBe(String(ttl));
    expect(new URL(a.url).pathname).toBe(new URL(b.url).pathname);
    // the expiry the URL carries is the expires_at the job shows
    const amzDate = (file: SignedFile) =>
      Date.parse(
        query(file)
          .get('X-Amz-Date')!
          .replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
      ) / 1000;
    expect(amzDate(a) + ttl).toBe(a.expires_at);
    expect(amzDate(b) + ttl).toBe(b.expires_at);

    // both verify under SigV4 in their lifetime; the first stops verifying after its expiry
    expect(await verifyPresignedUrl(a.url, { credentials, method: 'GET', nowMs: signedAtA * 1000 })).toEqual({
      valid: true,
    });
    expect(await verifyPresignedUrl(b.url, { credentials, method: 'GET', nowMs: signedAtB * 1000 })).toEqual({
      valid: true,
    });
    expect(
      await verifyPresignedUrl(a.url, { credentials, method: 'GET', nowMs: (a.expires_at + 1) * 1000 }),
    ).toMatchObject({ valid: false, reason: 'expired' });
    // pointing a URL at another job's file breaks its signature
    const other = a.url.replace(created.body.id, 'job_1111111111111111');
    expect(await verifyPresignedUrl(other, { credentials, method: 'GET', nowMs: signedAtA * 1000 })).toMatchObject({
      valid: false,
      reason: 'signature does not match',
    });
    // and both URLs still serve the same bytes
    expect((await download(a.url)).bytes.equals((await download(b.url)).bytes)).toBe(true);
  });

  it('the job list re-signs too', async () => {
    const created = await call(svc.baseUrl, 'POST', '/v1/render.background?wait=true', {
      key,
      form: formWith('images', [imageFile('list')]),
    });
    const listed = await call(svc.baseUrl, 'GET', '/v1/jobs?limit=5', { key });
    const mine = listed.body.data.find((job: { id: string }) => job.id === created.body.id);
    expect(mine.status).toBe('succeeded');
    const file = mine.result.images[0].image as SignedFile;
    expect(file.expires_at).toBeGreaterThan(nowSeconds());
    await expectDownloadable(file, 'png');
  });
});
