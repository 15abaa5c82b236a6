import { epochSeconds } from '../kernel/clock.js';
import { timeOrderedId } from '../kernel/ids.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused, type WriteOp } from '../ports/transactions.js';
import type { LedgerEntry } from './ledger.js';

/** A ledger entry of no job (a deposit or an adjustment), dated and identified by the service clock. */
export function accountEntry(
  services: Services,
  fields: {
    orgId: string;
    livemode: boolean;
    kind: 'deposit' | 'adjustment';
    amount: number;
    reference: string | null;
    reason?: string;
  },
): LedgerEntry {
  return {
    id: timeOrderedId('led', services.clock.nowMs()),
    object: 'ledger_entry',
    org_id: fields.orgId,
    kind: fields.kind,
    amount: fields.amount,
    job_id: null,
    livemode: fields.livemode,
    created: epochSeconds(services.clock),
    reference: fields.reference,
    ...(fields.reason === undefined ? {} : { reason: fields.reason }),
  };
}

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
  const entry = accountEntry(services, { orgId, livemode, kind: 'deposit', amount, reference });
  await services.uow.commit([
    { kind: 'moveBalance', orgId, livemode, delta: amount, mustStayNonNegative: false },
    { kind: 'appendLedger', entry },
    ...extraOps,
  ]);
  return entry;
}

/**
 * An operator's adjustment (`npm run admin -- grant-credits`): a signed whole number of credits,
 * with its reason kept on the entry. A negative one never takes the balance below zero; null when
 * the organisation has no such balance (it does not exist) or (negative) the balance is too low.
 */
export async function adjustCredits(
  services: Services,
  orgId: string,
  livemode: boolean,
  amount: number,
  reason: string,
): Promise<LedgerEntry | 'no_balance' | 'insufficient'> {
  if (!Number.isInteger(amount) || amount === 0)
    throw new RangeError('an adjustment is a non-zero whole number of credits');
  const entry = accountEntry(services, { orgId, livemode, kind: 'adjustment', amount, reference: 'admin', reason });
  try {
    await services.uow.commit([
      { kind: 'moveBalance', orgId, livemode, delta: amount, mustStayNonNegative: amount < 0 },
      { kind: 'appendLedger', entry },
    ]);
    return entry;
  } catch (error) {
    if (!(error instanceof TransactionRefused) || !error.refusedOps.includes('moveBalance')) throw error;
    return (await services.accounts.getOrganization(orgId)) ? 'insufficient' : 'no_balance';
  }
}
