import type { Clock } from '../kernel/clock.js';
import { ExpiringMap } from '../kernel/expiring-map.js';
import type { AccountStore, PlanLookup } from '../ports/access.js';

const TTL_MS = 60_000;

/** Plans change only through billing; a minute of staleness saves a read on every request. */
export class CachedPlanLookup implements PlanLookup {
  private readonly cache = new ExpiringMap<string, string>();

  constructor(
    private readonly accounts: AccountStore,
    private readonly clock: Clock,
  ) {}

  async planOf(orgId: string): Promise<string> {
    const now = this.clock.nowMs();
    const cached = this.cache.get(orgId, now);
    if (cached !== undefined) return cached;
    const plan = (await this.accounts.getOrganization(orgId))?.plan ?? 'free';
    this.cache.set(orgId, plan, now + TTL_MS);
    return plan;
  }
}
