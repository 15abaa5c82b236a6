import { epochSeconds } from '../kernel/clock.js';
import type { Services } from '../ports/services.js';
import { timeOrderedId } from '../kernel/ids.js';
import type { LedgerEntry } from './ledger.js';
import type { WriteOp } from '../ports/stores.js';

/** Adds credits to a balance and records the deposit in the same transaction (plus any `extraOps` that must commit with it). */
export async function depositCredits(
  services: Services,
  orgId: string,
  livemode: boolean,
  amount: number,
  reference: string | null,
  extraOps: readonly WriteOp[] = [],
): Promise<LedgerEntry> {
  if (!Number.isInteger(amount) || amount <= 0) throw new RangeError('a deposit is a positive whole number of credits');
  const entry: LedgerEntry = {
    id: timeOrderedId('led', services.clock.nowMs()),
    object: 'ledger_entry',
    org_id: orgId,
    kind: 'deposit',
    amount,
    job_id: null,
    livemode,
    created: epochSeconds(services.clock),
    reference,
  };
  await services.uow.commit([{ kind: 'moveBalance', orgId, livemode, delta: amount, mustStayNonNegative: false }, { kind: 'appendLedger', entry }, ...extraOps]);
  return entry;
}
