import type { Member } from '../access/member.js';

/** The published verification keys (a JWKS document). */
export interface PublishedKeySet {
  keys: Array<{ kty: string; kid?: string; alg?: string; use?: string; [member: string]: unknown }>;
}

/**
 * Verifies a dashboard token (signature against the issuer's key set, issuer, audience,
 * lifetime, claims). Any failure is `401 invalid_token`; it never says which check failed.
 */
export interface TokenVerifier {
  verify(token: string): Promise<Member>;
  /** what `GET /.well-known/jwks.json` serves */
  publishedKeys(): Promise<PublishedKeySet>;
}
