import { epochSeconds } from '../kernel/clock.js';
import type { ApiError } from '../kernel/errors.js';
import type { RateLimitDecision, RateLimitScope, RateLimitWindow } from '../ports/access.js';
import type { Services } from '../ports/services.js';
import type { WriteOp } from '../ports/transactions.js';
import { authenticateApiKey } from './api-keys.js';
import type { Principal } from './principal.js';
import { rateLimitError, rateLimitHeaders, refusedDecision, windowOf } from './rate-limits.js';

/**
 * The request checks of an inference call, folded into its admission transaction so the call
 * makes one DynamoDB round trip instead of three: the key's revocation (`expectKeysVersion`, a
 * condition on the balance the admission moves anyway, which lets the principal come from the
 * cache) and the rate-limit hit (`countRequest`, refused once the window is spent, so a 429
 * creates nothing). A call that ends without committing an admission (a 4xx, a stored-response
 * replay) is checked the ordinary way by `settleOutside`: a strongly consistent key read when the
 * principal was provisional, and a counted hit.
 */
export class AdmissionGate {
  private readonly window: RateLimitWindow;
  private observedHits: number | null = null;
  private decision: RateLimitDecision | null = null;

  constructor(
    private readonly services: Services,
    private principal: Principal,
    private readonly secret: string | null,
    private readonly scope: RateLimitScope,
  ) {
    this.window = windowOf(services.clock, scope);
  }

  /** A window this process already saw spent is refused before any work (after the key is known good). */
  async refuseIfKnownSpent(): Promise<void> {
    if (!this.services.rateLimiter.isExhausted(this.window, this.services.clock)) return;
    await this.verifyKey();
    this.decision = refusedDecision(this.window);
    throw rateLimitError(this.decision, this.scope.bucket, this.scope.plan, this.now(), this.headers());
  }

  /** The writes that must commit with the job. */
  ops(): WriteOp[] {
    const { orgId, livemode, keysVersion } = this.principal;
    return [
      // a principal read without its version (none is, on this path) is held to version 0: a mismatch only costs a re-read
      { kind: 'expectKeysVersion', orgId, livemode, version: keysVersion ?? 0 },
      { kind: 'countRequest', counterKey: this.window.counterKey, limit: this.window.limit, expiresAt: this.window.reset },
    ];
  }

  /**
   * After a refused admission: when the keys of the organisation changed since the principal was
   * read, reads the key again (`401` if it is this one that was revoked) and answers true, so the
   * admission is tried again with the fresh version; another key's revocation must not refuse it.
   */
  async recheck(refusedOps: readonly WriteOp['kind'][]): Promise<boolean> {
    if (!refusedOps.includes('expectKeysVersion')) return false;
    if (this.principal.secretHash) this.services.principals.forget(this.principal.secretHash);
    this.principal = await authenticateApiKey(this.services, this.secret, { provisional: true });
    return true;
  }

  /** Read beside the transaction, for `RateLimit-Remaining`; never fails the call. */
  async observe(): Promise<void> {
    this.observedHits = await this.services.rateLimitCounter.read(this.window.counterKey).catch(() => null);
  }

  /** What a refused admission transaction answers, when one of the gate's own writes refused it. */
  refusal(refusedOps: readonly WriteOp['kind'][]): ApiError | null {
    // another condition refused the transaction and the keys version held: as good as a fresh read
    // (a refusal naming nothing was a conflict, which proves nothing about the key)
    if (refusedOps.length > 0 && !refusedOps.includes('expectKeysVersion')) this.principal = { ...this.principal, provisional: false };
    if (refusedOps.includes('countRequest')) {
      this.services.rateLimiter.markExhausted(this.window);
      this.decision = refusedDecision(this.window);
      return rateLimitError(this.decision, this.scope.bucket, this.scope.plan, this.now(), this.headers());
    }
    return null;
  }

  /** The admission committed, and its hit with it. */
  committed(): void {
    this.principal = { ...this.principal, provisional: false };
    // the read ran beside the transaction and may or may not include this hit: count it once more, erring low
    const hits = (this.observedHits ?? 0) + 1;
    this.decision = { limit: this.window.limit, remaining: Math.max(0, this.window.limit - hits), reset: this.window.reset, allowed: true };
  }

  /**
   * For a call that committed no admission: proves the key (401 wins over anything else) and
   * counts the call (429 wins over the call's own answer, as when the count comes first).
   */
  async settleOutside(): Promise<void> {
    if (this.decision) return;
    await this.verifyKey();
    this.decision = await this.services.rateLimiter.check(this.services.clock, this.scope);
    if (!this.decision.allowed) throw rateLimitError(this.decision, this.scope.bucket, this.scope.plan, this.now(), this.headers());
  }

  headers(): Record<string, string> {
    return this.decision ? rateLimitHeaders(this.decision, this.now()) : {};
  }

  private async verifyKey(): Promise<void> {
    if (this.principal.provisional) this.principal = await authenticateApiKey(this.services, this.secret);
  }

  private now(): number {
    return epochSeconds(this.services.clock);
  }
}
