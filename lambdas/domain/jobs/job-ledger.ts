import { epochSeconds } from '../kernel/clock.js';
import { timeOrderedId } from '../kernel/ids.js';
import type { LedgerEntry, LedgerKind } from '../money/ledger.js';
import type { Services } from '../ports/services.js';
import type { JobRecord } from './job.js';

/** An entry of `job`'s: its reserve at admission, its commit and release at settlement. */
export function jobLedgerEntry(services: Services, job: JobRecord, kind: LedgerKind, amount: number, created = epochSeconds(services.clock)): LedgerEntry {
  return {
    id: timeOrderedId('led', services.clock.nowMs()),
    object: 'ledger_entry',
    org_id: job.org_id,
    kind,
    amount,
    job_id: job.id,
    livemode: job.livemode,
    created,
    reference: null,
    job_endpoint: job.endpoint,
  };
}
