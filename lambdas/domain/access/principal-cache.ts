import type { Principal } from './principal.js';

/** How long a verified key's principal is reused for admissions; its revocation is checked inside each admission anyway. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  principal: Principal;
  /** the earliest of the key's and the secret's expiry (epoch seconds), null when neither expires */
  expiresAt: number | null;
  until: number;
}

/**
 * What a secret hash resolved to on its last strongly consistent read. Only an admission may act on
 * it without reading again, because its transaction re-checks the secret item (`checkApiKey`), so a
 * revoked key still fails on the very next request.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();

  get(secretHash: string, nowMs: number): Principal | null {
    const entry = this.entries.get(secretHash);
    if (!entry) return null;
    if (entry.until <= nowMs || (entry.expiresAt !== null && entry.expiresAt * 1000 <= nowMs)) {
      this.entries.delete(secretHash);
      return null;
    }
    return entry.principal;
  }

  remember(secretHash: string, principal: Principal, expiresAt: number | null, nowMs: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(secretHash, { principal, expiresAt, until: nowMs + TTL_MS });
  }

  forget(secretHash: string): void {
    this.entries.delete(secretHash);
  }
}
