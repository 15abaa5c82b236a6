import type { LeaseStore } from '../../../lambdas/domain/ports/leases.js';

/** Leases as the table keeps them: one holder per name until its time runs out. */
export class InMemoryLeaseStore implements LeaseStore {
  private readonly held = new Map<string, { token: string; untilMs: number }>();

  async take(name: string, token: string, untilMs: number, nowMs: number): Promise<boolean> {
    const lease = this.held.get(name);
    if (lease && lease.untilMs > nowMs) return false;
    this.held.set(name, { token, untilMs });
    return true;
  }

  async release(name: string, token: string): Promise<void> {
    if (this.held.get(name)?.token === token) this.held.delete(name);
  }
}
