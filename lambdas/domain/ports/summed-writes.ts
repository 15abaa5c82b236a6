import { MAX_TRANSACTION_WRITES, type WriteOp } from './transactions.js';

// A transaction touches an item once (DynamoDB refuses a second write of one item, and so does the
// in-memory store), yet a group of admissions in one transaction (a batch's lines, docs/internals/batches.md)
// moves the same shared items once per line: the balance, the rate-limit window, the key's spend,
// the batch's counters. Such a group is committed as its writes summed into one per shared item,
// judged on the whole: the balance must cover every reservation, the window every hit. A group of
// a batch's settlements (jobs/settlement-groups.ts) adds the day's usage row and the check that no
// webhook endpoint listens.

/** Two writes to one item that no sum expresses (different conditions): a transaction must not hold both. */
export class UnsummableWrites extends Error {
  override readonly name = 'UnsummableWrites';
}

type Op<K extends WriteOp['kind']> = Extract<WriteOp, { kind: K }>;

/** The item a summable write touches; null for a write of an item of its own (a job, a ledger entry, a line). */
function sharedItemOf(op: WriteOp): string | null {
  switch (op.kind) {
    case 'moveBalance':
      return `balance#${op.orgId}#${op.livemode}`;
    case 'expectKeysVersion':
      return `keys-version#${op.orgId}#${op.livemode}`;
    case 'countRequest':
      return `window#${op.counterKey}`;
    case 'countKeySpend':
      return `spend#${op.counterKey}`;
    case 'updateBatch':
      return `batch#${op.batchId}`;
    case 'bumpUsage':
      return `usage#${op.orgId}#${op.date}#${op.endpoint}#${op.livemode}`;
    case 'expectNoWebhookEndpoints':
      return `endpoint-count#${op.orgId}`;
    default:
      return null;
  }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function refuse(a: WriteOp, why: string): never {
  throw new UnsummableWrites(`two ${a.kind} writes to one item ${why}`);
}

function sumTwo(a: WriteOp, b: WriteOp): WriteOp {
  switch (a.kind) {
    case 'moveBalance': {
      const other = b as Op<'moveBalance'>;
      // the summed move is held to the balance staying non-negative when any part was
      return {
        ...a,
        delta: a.delta + other.delta,
        mustStayNonNegative: a.mustStayNonNegative || other.mustStayNonNegative,
      };
    }
    case 'expectKeysVersion':
      if ((b as Op<'expectKeysVersion'>).version !== a.version) refuse(a, 'expect different versions');
      return a;
    case 'countRequest': {
      const other = b as Op<'countRequest'>;
      if (other.limit !== a.limit || other.expiresAt !== a.expiresAt) refuse(a, 'hold different limits');
      return { ...a, hits: (a.hits ?? 1) + (other.hits ?? 1) };
    }
    case 'countKeySpend': {
      const other = b as Op<'countKeySpend'>;
      if (!sameJson(other.fields, a.fields) || !sameJson(other.limit, a.limit) || other.expiresAt !== a.expiresAt)
        refuse(a, 'move different periods or limits');
      return { ...a, delta: a.delta + other.delta };
    }
    case 'bumpUsage': {
      const deltas = { ...a.deltas };
      for (const [counter, delta] of Object.entries((b as Op<'bumpUsage'>).deltas))
        deltas[counter as keyof typeof deltas] = (deltas[counter as keyof typeof deltas] ?? 0) + (delta ?? 0);
      return { ...a, deltas };
    }
    case 'expectNoWebhookEndpoints':
      return a;
    case 'updateBatch': {
      const other = b as Op<'updateBatch'>;
      if (!sameJson(other.expectStatus, a.expectStatus) || !sameJson(other.expectLease, a.expectLease))
        refuse(a, 'under different conditions');
      const set = { ...a.set };
      for (const [field, value] of Object.entries(other.set ?? {})) {
        if (field in set && !sameJson((set as Record<string, unknown>)[field], value))
          refuse(a, `setting ${field} twice`);
        (set as Record<string, unknown>)[field] = value;
      }
      const add = { ...a.add };
      for (const [counter, delta] of Object.entries(other.add ?? {}))
        add[counter as keyof typeof add] = (add[counter as keyof typeof add] ?? 0) + (delta ?? 0);
      return {
        ...a,
        ...(Object.keys(set).length ? { set } : {}),
        ...(Object.keys(add).length ? { add } : {}),
        ...(a.leavesDue || other.leavesDue ? { leavesDue: true } : {}),
      };
    }
    default:
      return refuse(a, 'that no sum expresses');
  }
}

/**
 * The writes with every group of summable writes to one shared item replaced by their sum, in the
 * place of the first: balance moves add up, window hits and spend add up, batch counters and usage
 * counters add up (a batch's SETs and conditions must agree), one check that no endpoint listens stands for all. Throws `UnsummableWrites` for writes to one item under
 * conditions that differ.
 */
export function sumSharedWrites(ops: readonly WriteOp[]): WriteOp[] {
  const summed: WriteOp[] = [];
  const at = new Map<string, number>();
  for (const op of ops) {
    const item = sharedItemOf(op);
    const index = item === null ? undefined : at.get(item);
    if (index === undefined) {
      if (item !== null) at.set(item, summed.length);
      summed.push(op);
    } else summed[index] = sumTwo(summed[index]!, op);
  }
  return summed;
}

/**
 * Whether the writes, once summed, fit one transaction of at most `MAX_TRANSACTION_WRITES`. (The
 * DynamoDB adapter folds a keys-version expectation into its balance's move, one action fewer;
 * counted here as a write of its own, a group fits the in-memory store's stricter count too.)
 */
export function fitsOneTransaction(ops: readonly WriteOp[]): boolean {
  return sumSharedWrites(ops).length <= MAX_TRANSACTION_WRITES;
}
