import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import type { Member } from '../domain/access/member.js';
import { isRole } from '../domain/access/members.js';
import type { Clock } from '../domain/kernel/clock.js';
import { ApiError } from '../domain/kernel/errors.js';
import type { PublishedKeySet, TokenVerifier } from '../domain/ports/access.js';

/** Asymmetric only: `none` and every HMAC algorithm are refused before any key is looked at. */
export const ACCEPTED_ALGORITHMS = ['ES256', 'RS256'];
/** docs/internals/management.md: `exp` at most 15 minutes after `iat` */
export const MAX_TOKEN_LIFETIME_SECONDS = 15 * 60;
const CLOCK_TOLERANCE_SECONDS = 5;

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  clock: Clock;
}

const invalidToken = () => new ApiError('invalid_token', 'Authorization');

/** The JWKS could not be fetched: our fault, not the caller's, so not a 401. */
function isKeySetUnavailable(error: unknown): boolean {
  return (
    error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || !(error instanceof errors.JOSEError)
  );
}

function memberOf(payload: JWTPayload): Member | null {
  const { sub, org_id: orgId, role, iat, exp } = payload as JWTPayload & { org_id?: unknown; role?: unknown };
  if (typeof sub !== 'string' || sub.length === 0) return null;
  if (typeof orgId !== 'string' || !orgId.startsWith('org_')) return null;
  if (!isRole(role)) return null;
  if (typeof iat !== 'number' || typeof exp !== 'number' || exp - iat > MAX_TOKEN_LIFETIME_SECONDS) return null;
  return { userId: sub, orgId, role };
}

/**
 * Verifies dashboard JWTs with `jose`: signature against the issuer's key set (by `kid`),
 * algorithm allow-list, `iss`, `aud`, `exp`/`nbf`/`iat` against the injected clock with a
 * small tolerance, a 15-minute maximum lifetime, and the `sub`, `org_id`, `role` claims.
 */
export class JoseTokenVerifier implements TokenVerifier {
  private constructor(
    private readonly keys: JWTVerifyGetKey,
    private readonly published: () => Promise<JSONWebKeySet>,
    private readonly options: TokenVerifierOptions,
  ) {}

  /** The issuer's JWKS over HTTPS, fetched on first use and cached for the life of the process (one Lambda cold start). */
  static remote(jwksUrl: string, options: TokenVerifierOptions): JoseTokenVerifier {
    const keySet = createRemoteJWKSet(new URL(jwksUrl), {
      timeoutDuration: 3000,
      cooldownDuration: 30_000,
      cacheMaxAge: 10 * 60_000,
    });
    return new JoseTokenVerifier(
      keySet,
      async () => {
        if (!keySet.jwks()) await keySet.reload();
        return keySet.jwks() ?? { keys: [] };
      },
      options,
    );
  }

  /** An in-process key set (the local runtime, which is its own issuer). */
  static local(jwks: JSONWebKeySet, options: TokenVerifierOptions): JoseTokenVerifier {
    return new JoseTokenVerifier(createLocalJWKSet(jwks), async () => jwks, options);
  }

  async verify(token: string): Promise<Member> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: ACCEPTED_ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(this.options.clock.nowMs()),
        requiredClaims: ['sub', 'org_id', 'role', 'iat', 'exp'],
      }));
    } catch (error) {
      if (isKeySetUnavailable(error))
        throw new ApiError(
          'service_unavailable',
          null,
          'The token issuer’s key set could not be fetched; retry shortly.',
        );
      throw invalidToken();
    }
    // jose accepts an `iat` in the future; a token minted ahead of time is not ours
    if (typeof payload.iat === 'number' && payload.iat > this.options.clock.nowMs() / 1000 + CLOCK_TOLERANCE_SECONDS)
      throw invalidToken();
    const member = memberOf(payload);
    if (!member) throw invalidToken();
    return member;
  }

  async publishedKeys(): Promise<PublishedKeySet> {
    const jwks = await this.published();
    // a key without `kty` is not a JWK (RFC 7517 §4.1): leave it out rather than publish it
    return { keys: jwks.keys.flatMap((key) => (typeof key.kty === 'string' ? [{ ...key, kty: key.kty }] : [])) };
  }
}
