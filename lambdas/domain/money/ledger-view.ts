import type { LedgerEntry } from './ledger.js';

/** The contract's ledger entry (plus an adjustment's `reason`): the stored entry minus its internal fields (`org_id`, `reference`). */
export interface PublicLedgerEntry {
  id: string;
  object: 'ledger_entry';
  kind: LedgerEntry['kind'];
  amount: number;
  job_id: string | null;
  livemode: boolean;
  created: number;
  /** an adjustment's reason; null on every other kind */
  reason: string | null;
}

export function presentLedgerEntry(entry: LedgerEntry): PublicLedgerEntry {
  return {
    id: entry.id,
    object: 'ledger_entry',
    kind: entry.kind,
    amount: entry.amount,
    job_id: entry.job_id,
    livemode: entry.livemode,
    created: entry.created,
    reason: entry.reason ?? null,
  };
}
