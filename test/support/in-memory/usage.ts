import { compareUsageRows, type UsageRow } from '../../../lambdas/domain/money/usage.js';
import type { UsageQuery, UsageStore } from '../../../lambdas/domain/ports/money.js';
import { copy, type InMemoryTables } from './tables.js';

/** Usage rows, written only by settlement transactions (`bumpUsage`). */
export class InMemoryUsageStore implements UsageStore {
  constructor(private readonly tables: InMemoryTables) {}

  async list(query: UsageQuery): Promise<UsageRow[]> {
    return [...this.tables.usage.values()]
      .filter(
        ({ orgId, row }) =>
          orgId === query.orgId &&
          row.date >= query.from &&
          row.date <= query.to &&
          (query.endpoint === undefined || row.endpoint === query.endpoint) &&
          (query.livemode === undefined || row.livemode === query.livemode),
      )
      .map(({ row }) => copy(row))
      .sort(compareUsageRows);
  }
}
