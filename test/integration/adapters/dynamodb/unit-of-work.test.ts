import { describe, expect, it } from 'vitest';
import { createOrganization } from '../../../../lambdas/domain/access/organizations.js';
import { sumSharedWrites } from '../../../../lambdas/domain/ports/summed-writes.js';
import { TransactionRefused, type WriteOp } from '../../../../lambdas/domain/ports/transactions.js';
import { sharedTestService } from '../../../support/service.js';

// Writes to one shared item summed into one (a transaction touches an item once), as a batch's
// group of lines commits them, judged on the whole by DynamoDB (docs/internals/batches.md, "Lines admitted in groups").

const svc = sharedTestService({ workerPaused: true });

describe('writes to one shared item in one transaction', () => {
  it('move the balance by their sum, refused whole when the balance covers a part but not all', async () => {
    const org = await createOrganization(svc.services, {
      name: 'Summed Balance',
      plan: 'enterprise',
      startingCredits: { live: 0, test: 30 },
    });
    const move = (delta: number): WriteOp => ({
      kind: 'moveBalance',
      orgId: org.organization.id,
      livemode: false,
      delta,
      mustStayNonNegative: true,
    });
    const version: WriteOp = { kind: 'expectKeysVersion', orgId: org.organization.id, livemode: false, version: 0 };
    await expect(svc.services.uow.commit(sumSharedWrites([move(-20), version, move(-20)]))).rejects.toEqual(
      new TransactionRefused(['moveBalance']),
    );
    expect(await svc.services.accounts.getBalance(org.organization.id, false)).toBe(30);
    await svc.services.uow.commit(sumSharedWrites([move(-10), version, move(-20)]));
    expect(await svc.services.accounts.getBalance(org.organization.id, false)).toBe(0);
  });

  it('count every hit on a window, refused whole when the window has no room for all of them', async () => {
    const counterKey = `summed-window-${Date.now()}`;
    const hit: WriteOp = { kind: 'countRequest', counterKey, limit: 5, expiresAt: Math.floor(Date.now() / 1000) + 60 };
    await svc.services.uow.commit(sumSharedWrites([hit, hit, hit]));
    expect(await svc.services.rateLimitCounter.read(counterKey)).toBe(3);
    await expect(svc.services.uow.commit(sumSharedWrites([hit, hit, hit]))).rejects.toEqual(
      new TransactionRefused(['countRequest']),
    );
    await svc.services.uow.commit(sumSharedWrites([hit, hit]));
    expect(await svc.services.rateLimitCounter.read(counterKey)).toBe(5);
    await expect(svc.services.uow.commit(sumSharedWrites([hit]))).rejects.toEqual(
      new TransactionRefused(['countRequest']),
    );
    // more hits than the limit never fit, even in a fresh window
    await expect(
      svc.services.uow.commit(
        sumSharedWrites(Array.from({ length: 6 }, () => ({ ...hit, counterKey: `${counterKey}-fresh` }))),
      ),
    ).rejects.toEqual(new TransactionRefused(['countRequest']));
  });
});
