import type { Services } from '../ports/services.js';
import { sumSharedWrites, UnsummableWrites } from '../ports/summed-writes.js';
import { MAX_TRANSACTION_WRITES, TransactionRefused, type WriteOp } from '../ports/transactions.js';
import { commitAnnounced, type EventOp } from '../webhooks/emission.js';

// A batch's settlements committed in groups (docs/internals/batches.md, "Settlements in groups"): the
// jobs of one batch settling in this process at the same moment share one transaction, as its
// lines share one at admission. Each job keeps its own conditioned update, ledger entries and
// event, exactly the writes its own settlement would make; the batch's counters, the day's usage
// row, the balance and the check that no endpoint listens take one summed write per group. A group
// refused as a whole (one job settled meanwhile, past its deadline, a listener added) wrote
// nothing: its settlements are committed one by one, so each gets its own answer. Nothing waits
// for a group to fill: a settlement is committed with those that arrived while the previous
// group's transaction was in flight, so a lone settlement goes alone, one event-loop turn later.

/** One job's settlement waiting for its group's transaction. */
interface Waiting {
  jobId: string;
  ops: readonly WriteOp[];
  eventOps: readonly EventOp[];
  settle(outcome: { undispatched: readonly EventOp[] } | { error: unknown }): void;
}

/** What keeps a group's transaction well inside DynamoDB's 4 MB per transaction. */
const MAX_GROUP_BYTES = 2 * 1024 * 1024;

/** A batch's settlements in this process: those waiting, and whether a group's transaction is in flight. */
interface BatchGroups {
  waiting: Waiting[];
  committing: boolean;
}

const groupsOf = new WeakMap<Services, Map<string, BatchGroups>>();

/**
 * Commits the settlement of one job of `batchId` (its writes, and the events it announces) as
 * `commitAnnounced` would, in a group with the batch's other settlements under way here: resolves
 * to the events still to dispatch, or rejects as its own transaction would have (a
 * `TransactionRefused` naming its refused writes).
 */
export function commitBatchSettlement(
  services: Services,
  batchId: string,
  jobId: string,
  ops: readonly WriteOp[],
  eventOps: readonly EventOp[],
): Promise<readonly EventOp[]> {
  let batches = groupsOf.get(services);
  if (!batches) groupsOf.set(services, (batches = new Map()));
  let groups = batches.get(batchId);
  if (!groups) batches.set(batchId, (groups = { waiting: [], committing: false }));
  const settling = new Promise<readonly EventOp[]>((resolve, reject) =>
    groups.waiting.push({
      jobId,
      ops,
      eventOps,
      settle: (outcome) => ('error' in outcome ? reject(outcome.error) : resolve(outcome.undispatched)),
    }),
  );
  if (!groups.committing) void commitGroups(services, batches, batchId, groups);
  return settling;
}

async function commitGroups(
  services: Services,
  batches: Map<string, BatchGroups>,
  batchId: string,
  groups: BatchGroups,
): Promise<void> {
  groups.committing = true;
  try {
    // the settlements already under way in this turn of the event loop join the first group
    await new Promise((resolve) => setImmediate(resolve));
    while (groups.waiting.length > 0) await commitGroup(services, takeGroup(groups));
  } catch (error) {
    // no settlement is left waiting for a group that will not come
    for (const waiting of groups.waiting.splice(0)) waiting.settle({ error });
  } finally {
    groups.committing = false;
    batches.delete(batchId);
  }
}

/** The longest run of waiting settlements, in order, that fits one transaction: each job once. */
function takeGroup(groups: BatchGroups): Waiting[] {
  const group: Waiting[] = [];
  const jobs = new Set<string>();
  const left: Waiting[] = [];
  let ops: WriteOp[] = [];
  let bytes = 0;
  for (const waiting of groups.waiting) {
    // the same job twice (a duplicate message) would write its item twice: it waits for the next group
    if (jobs.has(waiting.jobId) || left.length > 0) {
      left.push(waiting);
      continue;
    }
    const withIt = [...ops, ...waiting.ops, ...waiting.eventOps];
    const size = bytes + JSON.stringify(waiting.ops).length + JSON.stringify(waiting.eventOps).length;
    if (group.length > 0 && (size > MAX_GROUP_BYTES || !fits(withIt))) {
      left.push(waiting);
      continue;
    }
    group.push(waiting);
    jobs.add(waiting.jobId);
    ops = withIt;
    bytes = size;
  }
  groups.waiting = left;
  return group;
}

/** Whether the writes, summed, fit one transaction beside the check that no endpoint listens. */
function fits(ops: readonly WriteOp[]): boolean {
  try {
    return sumSharedWrites(ops).length + 1 <= MAX_TRANSACTION_WRITES;
  } catch (error) {
    // writes to one item no sum expresses: the settlement goes in a group of its own
    if (error instanceof UnsummableWrites) return false;
    throw error;
  }
}

async function commitGroup(services: Services, group: readonly Waiting[]): Promise<void> {
  if (group.length > 1) {
    try {
      const undispatched = await commitAnnounced(
        services,
        sumSharedWrites(group.flatMap((waiting) => waiting.ops)),
        group.flatMap((waiting) => waiting.eventOps),
      );
      // every event is dispatched with the group's, or none (no endpoint listened)
      for (const waiting of group) waiting.settle({ undispatched: undispatched.length ? waiting.eventOps : [] });
      return;
    } catch (error) {
      if (!(error instanceof TransactionRefused || error instanceof UnsummableWrites)) {
        for (const waiting of group) waiting.settle({ error });
        return;
      }
      services.log.info('batch settlement group refused; its jobs are settled one by one', {
        jobs: group.length,
        refused_by: error instanceof TransactionRefused ? error.refusedOps.join(', ') || 'conflicts' : error.message,
      });
    }
  }
  for (const waiting of group) {
    try {
      waiting.settle({ undispatched: await commitAnnounced(services, waiting.ops, waiting.eventOps) });
    } catch (error) {
      waiting.settle({ error });
    }
  }
}
