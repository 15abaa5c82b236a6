import { ExpiringMap } from '../kernel/expiring-map.js';
import type { Principal } from './principal.js';

/** How long a verified key's principal is reused for admissions; each admission's transaction holds to its keys version anyway. */
const TTL_MS = 60_000;

/**
 * What a secret hash resolved to on its last strongly consistent read, with the keys version read
 * beside it. Only an admission may act on it without reading again, because its transaction holds
 * to that version (`expectKeysVersion`), which every revocation and rotation bumps: a revoked key
 * still fails on the very next request.
 */
export class PrincipalCache {
  private readonly entries = new ExpiringMap<string, Principal>();

  get(secretHash: string, nowMs: number): Principal | null {
    return this.entries.get(secretHash, nowMs) ?? null;
  }

  /** `expiresAt`: the earliest of the key's and the secret's expiry (epoch seconds), null when neither expires */
  remember(secretHash: string, principal: Principal, expiresAt: number | null, nowMs: number): void {
    this.entries.set(
      secretHash,
      principal,
      Math.min(nowMs + TTL_MS, expiresAt === null ? Number.POSITIVE_INFINITY : expiresAt * 1000),
    );
  }

  forget(secretHash: string): void {
    this.entries.delete(secretHash);
  }
}
