import type { LedgerEntry } from './ledger.js';

/** The ledger entry as presented (docs/management.md): the stored entry minus its internal fields (`org_id`, `reference`). */
export interface PublicLedgerEntry {
  id: string;
  object: 'ledger_entry';
  kind: LedgerEntry['kind'];
  amount: number;
  job_id: string | null;
  livemode: boolean;
  created: number;
}

export function presentLedgerEntry(entry: LedgerEntry): PublicLedgerEntry {
  return { id: entry.id, object: 'ledger_entry', kind: entry.kind, amount: entry.amount, job_id: entry.job_id, livemode: entry.livemode, created: entry.created };
}
