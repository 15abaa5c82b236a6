import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildContainer } from '../../../lambdas/composition/container.js';
import { AdjustableClock } from '../../../lambdas/domain/kernel/clock.js';
import { offlineInfrastructure } from '../../support/container.js';
import { verifyPresignedUrl } from '../../support/sigv4.js';

/**
 * The signing code itself, at chosen times: a URL from S3ObjectStore verifies under SigV4
 * recomputed with the same credentials (by the local S3 stand-in's own check, which
 * test/integration/local/stand-ins/s3-signatures.test.ts runs over HTTP), and any tampering (key,
 * expiry, signature, date, signed header) or expiry makes it fail, as S3 would.
 */
const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const clock = new AdjustableClock();
// the object store and S3 client as the composition root makes them, with their settings
const container = buildContainer({ clock, infrastructure: offlineInfrastructure(credentials) });
const store = container.objects;
afterAll(async () => (await container.clients.s3()).destroy());

function tamper(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
}

describe('signed GET URLs of result files', () => {
  const key = 'outputs/org_1/job_1/image-0.png';

  it('verify with the same credentials, for the lifetime asked for', async () => {
    const url = await store.signedGetUrl(key, 3600);
    expect(new URL(url).pathname).toBe(`/ais-files/${key}`);
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('3600');
    const signedAtMs = Date.parse(
      new URL(url).searchParams
        .get('X-Amz-Date')!
        .replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
    );
    expect(await verifyPresignedUrl(url, { credentials, method: 'GET', nowMs: signedAtMs })).toEqual({ valid: true });
    expect(await verifyPresignedUrl(url, { credentials, method: 'GET', nowMs: signedAtMs + 3599_000 })).toEqual({
      valid: true,
    });
  });

  it('stop verifying once expired', async () => {
    const url = await store.signedGetUrl(key, 3600);
    expect(await verifyPresignedUrl(url, { credentials, method: 'GET', nowMs: clock.nowMs() + 3601_000 })).toEqual({
      valid: false,
      reason: 'expired',
    });
  });

  it('do not verify when the key, the expiry, the date or the signature is changed', async () => {
    // signed at midday UTC, so that the date moved an hour later below stays on the day the
    // credential scope names (between 23:00 and midnight it would fail on the scope instead)
    const today = new Date(clock.nowMs()).toISOString().slice(0, 10);
    clock.advance(Date.parse(`${today}T12:00:00Z`) - clock.nowMs());
    onTestFinished(() => clock.reset());
    const url = await store.signedGetUrl(key, 3600);
    const now = clock.nowMs();
    const otherKey = url.replace('/image-0.png', '/image-1.png');
    expect(await verifyPresignedUrl(otherKey, { credentials, method: 'GET', nowMs: now })).toMatchObject({
      valid: false,
      reason: 'signature does not match',
    });
    const otherOrg = url.replace('/org_1/', '/org_2/');
    expect(await verifyPresignedUrl(otherOrg, { credentials, method: 'GET', nowMs: now })).toMatchObject({
      valid: false,
    });
    const longer = tamper(url, 'X-Amz-Expires', '604800');
    expect(await verifyPresignedUrl(longer, { credentials, method: 'GET', nowMs: now })).toMatchObject({
      valid: false,
      reason: 'signature does not match',
    });
    const signature = new URL(url).searchParams.get('X-Amz-Signature')!;
    const flipped = tamper(url, 'X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    expect(await verifyPresignedUrl(flipped, { credentials, method: 'GET', nowMs: now })).toMatchObject({
      valid: false,
      reason: 'signature does not match',
    });
    // moving the date an hour later would stretch the URL's life: the signature covers the date
    const later = new Date(now + 3600_000)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const redated = tamper(url, 'X-Amz-Date', later);
    expect(await verifyPresignedUrl(redated, { credentials, method: 'GET', nowMs: now + 3700_000 })).toMatchObject({
      valid: false,
      reason: 'signature does not match',
    });
  });

  it('do not verify under other credentials or for another method', async () => {
    const url = await store.signedGetUrl(key, 3600);
    expect(
      await verifyPresignedUrl(url, {
        credentials: { ...credentials, secretAccessKey: 'another-secret' },
        method: 'GET',
        nowMs: clock.nowMs(),
      }),
    ).toMatchObject({
      valid: false,
    });
    expect(await verifyPresignedUrl(url, { credentials, method: 'DELETE', nowMs: clock.nowMs() })).toMatchObject({
      valid: false,
      reason: 'signature does not match',
    });
  });

  it('are dated by the injected clock, so every read signs anew', async () => {
    const first = await store.signedGetUrl(key, 3600);
    clock.advance(90_000);
    const second = await store.signedGetUrl(key, 3600);
    expect(second).not.toBe(first);
    const dateOf = (url: string) => new URL(url).searchParams.get('X-Amz-Date');
    expect(dateOf(second)).not.toBe(dateOf(first));
    expect(await verifyPresignedUrl(second, { credentials, method: 'GET', nowMs: clock.nowMs() })).toEqual({
      valid: true,
    });
  });
});

describe('presigned PUT URLs of uploads', () => {
  const key = 'uploads/org_1/upl_1';

  it('name no checksum: the bytes are not known when the URL is signed, and S3 would hold the upload to the one named', async () => {
    const url = new URL(await store.signedPutUrl(key, 'image/png', 12_345, 3600));
    const checksumParameters = [...url.searchParams.keys()].filter((name) => /checksum/i.test(name));
    expect(checksumParameters).toEqual([]);
  });

  it('sign Content-Type and Content-Length, so S3 refuses another type or size', async () => {
    const url = await store.signedPutUrl(key, 'video/mp4', 52_428_800, 3600);
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    const now = clock.nowMs();
    const declared = { 'Content-Type': 'video/mp4', 'Content-Length': '52428800' };
    expect(await verifyPresignedUrl(url, { credentials, method: 'PUT', nowMs: now, headers: declared })).toEqual({
      valid: true,
    });
    expect(
      await verifyPresignedUrl(url, {
        credentials,
        method: 'PUT',
        nowMs: now,
        headers: { ...declared, 'Content-Type': 'text/html' },
      }),
    ).toMatchObject({
      valid: false,
      reason: 'signature does not match',
    });
    expect(
      await verifyPresignedUrl(url, {
        credentials,
        method: 'PUT',
        nowMs: now,
        headers: { ...declared, 'Content-Length': '999999999' },
      }),
    ).toMatchObject({
      valid: false,
      reason: 'signature does not match',
    });
    expect(
      await verifyPresignedUrl(url, {
        credentials,
        method: 'PUT',
        nowMs: now,
        headers: { 'Content-Type': 'video/mp4' },
      }),
    ).toMatchObject({ valid: false });
    expect(await verifyPresignedUrl(url, { credentials, method: 'GET', nowMs: now, headers: declared })).toMatchObject({
      valid: false,
    });
  });
});
