import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  newCallbackSecret,
  SIGNATURE_TOLERANCE_SECONDS,
  signatureHeader,
  verifySignatureHeader,
} from '../../../../lambdas/domain/kernel/signatures.js';

const SECRET = 'icsec_unit_test_secret';
const T = 1_760_000_000;
const BODY = JSON.stringify({
  job_id: 'job_1111111111111111',
  status: 'succeeded',
  model_version: 'plate-reader-v6@2026-07-01',
  result: { plates: [] },
});

describe('signatureHeader', () => {
  it('is t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signatureHeader(BODY, SECRET, T)).toBe(`t=${T},v1=${expected}`);
    // raw bytes sign the same as their text
    expect(signatureHeader(Buffer.from(BODY), SECRET, T)).toBe(signatureHeader(BODY, SECRET, T));
  });

  it("is byte-compatible with Stripe's scheme, so Stripe's helpers verify it", () => {
    expect(signatureHeader(BODY, SECRET, T)).toBe(
      Stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: SECRET, timestamp: T }),
    );
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'ping', data: { object: {} } });
    expect(() =>
      Stripe.webhooks.constructEvent(payload, signatureHeader(payload, SECRET, T), SECRET, 300, undefined, T * 1000),
    ).not.toThrow();
  });

  it('carries one v1 per secret while a secret is rolled', () => {
    const header = signatureHeader(BODY, ['old_secret', SECRET], T);
    expect(header.split(',')).toHaveLength(3);
    expect(header.split(',')[2]).toBe(signatureHeader(BODY, SECRET, T).split(',')[1]);
  });
});

describe('verifySignatureHeader', () => {
  const verify = (header: string | undefined, body: string | Buffer = BODY, now = T) =>
    verifySignatureHeader(header, body, SECRET, now);
  const v1 = (secret: string, t = T, body = BODY) => signatureHeader(body, secret, t).split(',')[1]!;

  it('accepts a correct signature over the raw bytes', () => {
    expect(verify(signatureHeader(BODY, SECRET, T))).toBeNull();
    expect(verify(signatureHeader(BODY, SECRET, T), Buffer.from(BODY))).toBeNull();
    // whitespace around elements, upper-case hex, and schemes it does not know are tolerated
    expect(verify(` t=${T} , ${v1(SECRET).toUpperCase().replace('V1=', 'v1=')} `)).toBeNull();
    expect(verify(`t=${T},v0=deadbeef,${v1(SECRET)}`)).toBeNull();
  });

  it('accepts any matching v1 (secret rotation), in any position', () => {
    expect(verify(signatureHeader(BODY, ['retired', SECRET], T))).toBeNull();
    expect(verify(signatureHeader(BODY, [SECRET, 'next'], T))).toBeNull();
    expect(verify(signatureHeader(BODY, ['retired', 'next'], T))).toBe('mismatch');
  });

  it('reports a missing header', () => {
    expect(verify(undefined)).toBe('missing');
    expect(verify('')).toBe('missing');
    expect(verify('   ')).toBe('missing');
  });

  it.each([
    ['no timestamp', `${'v1='}${'a'.repeat(64)}`],
    ['no v1', `t=${T}`],
    ['only another scheme', `t=${T},v0=${'a'.repeat(64)}`],
    ['a non-numeric timestamp', `t=1.5e9,v1=${'a'.repeat(64)}`],
    ['a negative timestamp', `t=-1,v1=${'a'.repeat(64)}`],
    ['two timestamps', `t=${T},t=${T},v1=${'a'.repeat(64)}`],
    ['a short signature', `t=${T},v1=abc`],
    ['a non-hex signature', `t=${T},v1=${'z'.repeat(64)}`],
    ['an element without =', `t=${T},v1`],
    ['a bare value', 'deadbeef'],
  ])('reports a malformed header: %s', (_name, header) => {
    expect(verify(header)).toBe('malformed');
  });

  it('reports a mismatch for another secret, another body, or a changed timestamp', () => {
    expect(verify(signatureHeader(BODY, 'another', T))).toBe('mismatch');
    expect(verify(signatureHeader(BODY, SECRET, T), `${BODY} `)).toBe('mismatch');
    expect(verify(signatureHeader(BODY, SECRET, T), BODY.replace('succeeded', 'failed'))).toBe('mismatch');
    expect(verify(`t=${T + 1},${v1(SECRET)}`)).toBe('mismatch');
  });

  it(`allows ${SIGNATURE_TOLERANCE_SECONDS} s of skew either way, and no more`, () => {
    const header = signatureHeader(BODY, SECRET, T);
    expect(verify(header, BODY, T + 300)).toBeNull();
    expect(verify(header, BODY, T - 300)).toBeNull();
    expect(verify(header, BODY, T + 301)).toBe('outside_tolerance');
    expect(verify(header, BODY, T - 301)).toBe('outside_tolerance');
    expect(verifySignatureHeader(header, BODY, SECRET, T + 60, 30)).toBe('outside_tolerance');
  });

  it('checks the signature before the date: a forged old header is a mismatch, not merely stale', () => {
    expect(verify(signatureHeader(BODY, 'another', T - 3600))).toBe('mismatch');
  });
});

describe('newCallbackSecret', () => {
  it('is icsec_ and 32 random bytes in hex, fresh every time', () => {
    const a = newCallbackSecret();
    expect(a).toMatch(/^icsec_[0-9a-f]{64}$/);
    expect(newCallbackSecret()).not.toBe(a);
  });
});
