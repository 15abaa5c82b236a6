import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../../../lambdas/domain/access/organizations.js';
import { timeOrderedId } from '../../../../lambdas/domain/kernel/ids.js';
import { depositCredits } from '../../../../lambdas/domain/money/credits.js';
import type { LedgerEntry } from '../../../../lambdas/domain/money/ledger.js';
import { sharedTestService } from '../../../support/service.js';

let doc: DynamoDBDocumentClient;
const table = () => svc.services.infrastructure.tableName;

const svc = sharedTestService({ workerPaused: true });
beforeAll(async () => {
  doc = DynamoDBDocumentClient.from(svc.services.clients.dynamodb);
});

/** Every page of `listLedger`, walked `limit` at a time. */
async function walk(orgId: string, livemode: boolean | undefined, limit: number): Promise<LedgerEntry[]> {
  const seen: LedgerEntry[] = [];
  let startingAfter: string | undefined;
  for (;;) {
    const page = await svc.services.accounts.listLedger({
      orgId,
      limit,
      ...(livemode === undefined ? {} : { livemode }),
      ...(startingAfter ? { startingAfter } : {}),
    });
    seen.push(...page.items);
    if (!page.hasMore) return seen;
    startingAfter = page.items.at(-1)!.id;
  }
}

describe('the ledger, one partition per organisation and mode', () => {
  it('writes an entry into its mode’s partition, with no index entry', async () => {
    const org = await createOrganization(svc.services, { name: 'Partitioned', plan: 'pro' });
    const entry = await depositCredits(svc.services, org.organization.id, true, 700, 'partition');
    const item = (
      await doc.send(
        new GetCommand({ TableName: table(), Key: { pk: `LEDGER#${org.organization.id}#live`, sk: entry.id } }),
      )
    ).Item;
    expect(item).toMatchObject({ id: entry.id, amount: 700, livemode: true });
    expect(Object.keys(item!).filter((name) => name.startsWith('gsi'))).toEqual([]);
  });

  it('lists entries written before the partitions beside new ones: per mode and across modes, newest first, paged', async () => {
    const org = await createOrganization(svc.services, { name: 'Migrated', plan: 'pro' });
    const orgId = org.organization.id;
    // the old layout: the organisation's partition, with a per-mode gsi1 entry
    const legacy = Array.from({ length: 5 }, (_, i) => {
      const livemode = i % 2 === 0;
      const id = timeOrderedId('led', Date.now() - 60_000 + i);
      return {
        id,
        object: 'ledger_entry',
        org_id: orgId,
        livemode,
        kind: 'deposit',
        amount: 10 + i,
        job_id: null,
        reference: 'legacy',
        created: Math.floor(Date.now() / 1000) - 60,
      };
    });
    await doc.send(
      new BatchWriteCommand({
        RequestItems: {
          [table()]: legacy.map((entry) => ({
            PutRequest: {
              Item: {
                pk: `LEDGER#${orgId}`,
                sk: entry.id,
                gsi1pk: `LEDGER#${orgId}#${entry.livemode ? 'live' : 'test'}`,
                gsi1sk: entry.id,
                ...entry,
              },
            },
          })),
        },
      }),
    );
    for (const [livemode, amount] of [
      [true, 100],
      [false, 200],
      [true, 300],
    ] as const)
      await depositCredits(svc.services, orgId, livemode, amount, 'new layout');

    const everything = await walk(orgId, undefined, 100);
    // newest first: the three new deposits, the two the organisation was created with, then the old layout's five
    expect(everything.map((entry) => entry.amount)).toEqual([300, 200, 100, 10_000, 10_000, 14, 13, 12, 11, 10]);
    expect(everything.map((entry) => entry.id)).toEqual([...everything.map((entry) => entry.id)].sort().reverse());
    // two at a time, the merged pages neither skip nor repeat
    expect((await walk(orgId, undefined, 2)).map((entry) => entry.id)).toEqual(everything.map((entry) => entry.id));
    for (const livemode of [true, false]) {
      const mode = everything.filter((entry) => entry.livemode === livemode);
      expect((await walk(orgId, livemode, 100)).map((entry) => entry.id)).toEqual(mode.map((entry) => entry.id));
      expect((await walk(orgId, livemode, 1)).map((entry) => entry.id)).toEqual(mode.map((entry) => entry.id));
    }
    // an endpoint filter reads every partition, old ones included: their entries carry no slug, so none match
    for (const livemode of [undefined, true, false]) {
      const filtered = await svc.services.accounts.listLedger({
        orgId,
        jobEndpoint: 'plate.read',
        limit: 100,
        ...(livemode === undefined ? {} : { livemode }),
      });
      expect(filtered).toEqual({ items: [], hasMore: false });
    }
  });
});
