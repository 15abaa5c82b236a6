import { JoseTokenVerifier } from '../adapters/jose-token-verifier.js';
import type { Clock } from '../domain/kernel/clock.js';
import type { TokenVerifier } from '../domain/ports/access.js';

/**
 * The management surface's token verifier on AWS: JWT_ISSUER and JWT_AUDIENCE, and JWKS_URL
 * (default `<issuer>/.well-known/jwks.json`, right for Cognito and most OIDC issuers). The key
 * set is fetched on first use and cached for the life of the Lambda instance.
 * Kept out of container.ts so only management bundles carry `jose`.
 */
export function tokenVerifierFromEnvironment(clock: Clock): TokenVerifier | undefined {
  const issuer = process.env.JWT_ISSUER;
  const audience = process.env.JWT_AUDIENCE;
  if (!issuer || !audience) return undefined;
  return JoseTokenVerifier.remote(process.env.JWKS_URL ?? `${issuer.replace(/\/$/, '')}/.well-known/jwks.json`, {
    issuer,
    audience,
    clock,
  });
}
