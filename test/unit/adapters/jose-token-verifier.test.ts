import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { JoseTokenVerifier } from '../../../lambdas/adapters/jose-token-verifier.js';
import { AdjustableClock } from '../../../lambdas/domain/kernel/clock.js';
import { loadOrCreateSigningKey, publicKeySet, signDashboardToken } from '../../../local/local-issuer.js';
import { codeOf } from '../../support/api-errors.js';

const ISSUER = 'http://127.0.0.1:9999';
const AUDIENCE = 'automotive-inference-mgmt';

describe('JoseTokenVerifier', () => {
  it('verifies with the injected clock, and only within the token’s life', async () => {
    const key = await loadOrCreateSigningKey();
    const clock = new AdjustableClock();
    const verifier = JoseTokenVerifier.local(publicKeySet(key), { issuer: ISSUER, audience: AUDIENCE, clock });
    const token = await signDashboardToken(key, {
      issuer: ISSUER,
      orgId: 'org_abcdefgh1',
      role: 'admin',
      nowSeconds: Math.floor(clock.nowMs() / 1000),
    });
    await expect(verifier.verify(token)).resolves.toMatchObject({ orgId: 'org_abcdefgh1', role: 'admin' });
    clock.advance(899_000);
    expect(await codeOf(verifier.verify(token))).toBe('ok');
    clock.advance(10_000);
    expect(await codeOf(verifier.verify(token))).toBe('invalid_token');
  });

  it('accepts RS256 from the key set, and refuses a token whose kid the set lacks', async () => {
    const rsa = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' };
    const clock = new AdjustableClock();
    const verifier = JoseTokenVerifier.local({ keys: [jwk] }, { issuer: ISSUER, audience: AUDIENCE, clock });
    const now = Math.floor(clock.nowMs() / 1000);
    const sign = (kid: string) =>
      new SignJWT({ org_id: 'org_abcdefgh1', role: 'member' })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject('usr_1')
        .setIssuedAt(now)
        .setExpirationTime(now + 300)
        .sign(rsa.privateKey);
    expect(await codeOf(verifier.verify(await sign('rsa-1')))).toBe('ok');
    expect(await codeOf(verifier.verify(await sign('rsa-2')))).toBe('invalid_token');
  });

  it('answers 503, not 401, when the remote key set cannot be fetched', async () => {
    const verifier = JoseTokenVerifier.remote('http://127.0.0.1:9/.well-known/jwks.json', {
      issuer: ISSUER,
      audience: AUDIENCE,
      clock: new AdjustableClock(),
    });
    const key = await loadOrCreateSigningKey();
    expect(
      await codeOf(
        verifier.verify(await signDashboardToken(key, { issuer: ISSUER, orgId: 'org_abcdefgh1', role: 'owner' })),
      ),
    ).toBe('service_unavailable');
  });
});
