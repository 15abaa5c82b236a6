import type { Services } from '../../lambdas/domain/ports/services.js';

/** Sums every ledger entry of a mode, across pages. */
export async function ledgerSum(services: Services, orgId: string, livemode: boolean): Promise<number> {
  let sum = 0;
  let startingAfter: string | undefined;
  for (;;) {
    const page = await services.accounts.listLedger({
      orgId,
      livemode,
      limit: 100,
      ...(startingAfter ? { startingAfter } : {}),
    });
    for (const entry of page.items) sum += entry.amount;
    if (!page.hasMore) return sum;
    startingAfter = page.items[page.items.length - 1]!.id;
  }
}
