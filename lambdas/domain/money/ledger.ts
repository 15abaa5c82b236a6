import type { EndpointSlug } from '../catalogue/catalogue.js';

export type LedgerKind = 'reserve' | 'commit' | 'release' | 'deposit' | 'adjustment';

/**
 * `amount` is the entry's effect on the available balance, so the balance is the plain sum.
 * A job yields `reserve` (−reserved), `commit` (0: the hold is captured; the charged amount
 * is on the job) and `release` (+unused delta) when anything is left to give back.
 */
export interface LedgerEntry {
  id: string;
  object: 'ledger_entry';
  org_id: string;
  kind: LedgerKind;
  amount: number;
  job_id: string | null;
  livemode: boolean;
  created: number;
  /** free-form origin, e.g. a payment event id for deposits */
  reference: string | null;
  /** why an operator made an adjustment (`npm run admin -- grant-credits --reason`); internal, absent on other kinds */
  reason?: string;
  /**
   * internal, never presented: the endpoint slug of the entry's job, so the ledger can be filtered
   * by it; absent on deposits and adjustments, and on entries written before it was stored
   */
  job_endpoint?: EndpointSlug;
}

/** The ledger entry as presented (docs/internals/management.md): the stored entry minus its internal fields (`org_id`, `reference`, `reason`). */
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
  return {
    id: entry.id,
    object: 'ledger_entry',
    kind: entry.kind,
    amount: entry.amount,
    job_id: entry.job_id,
    livemode: entry.livemode,
    created: entry.created,
  };
}
