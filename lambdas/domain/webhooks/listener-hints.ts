/** How long an organisation found to have webhook endpoints is assumed to keep them. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Organisations this process recently found to have webhook endpoints. Their events are written to
 * be dispatched straight away, without first trying the write that holds only when there are none.
 * A hint, never a source of truth: either write is checked by its transaction.
 */
export class ListenerHints {
  private readonly until = new Map<string, number>();

  mayHaveListeners(orgId: string, nowMs: number): boolean {
    const until = this.until.get(orgId);
    if (until === undefined) return false;
    if (until > nowMs) return true;
    this.until.delete(orgId);
    return false;
  }

  sawListeners(orgId: string, nowMs: number): void {
    if (this.until.size >= MAX_ENTRIES) this.until.delete(this.until.keys().next().value!);
    this.until.set(orgId, nowMs + TTL_MS);
  }
}
