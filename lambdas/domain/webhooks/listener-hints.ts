import { ExpiringMap } from '../kernel/expiring-map.js';

/** How long an organisation found to have webhook endpoints is assumed to keep them. */
const TTL_MS = 60_000;

/**
 * Organisations this process recently found to have webhook endpoints. Their events are written to
 * be dispatched straight away, without first trying the write that holds only when there are none.
 * A hint, never a source of truth: either write is checked by its transaction.
 */
export class ListenerHints {
  private readonly seen = new ExpiringMap<string, true>();

  mayHaveListeners(orgId: string, nowMs: number): boolean {
    return this.seen.get(orgId, nowMs) === true;
  }

  sawListeners(orgId: string, nowMs: number): void {
    this.seen.set(orgId, true, nowMs + TTL_MS);
  }
}
