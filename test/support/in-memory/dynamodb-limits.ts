import {
  MAX_ITEM_BYTES,
  MAX_TRANSACTION_WRITES,
  TransactionInvalid,
  type WriteOp,
} from '../../../lambdas/domain/ports/transactions.js';

/**
 * An item's size as DynamoDB counts it against its 400 KB limit: attribute names and values, strings
 * in UTF-8, numbers at about one byte per two significant digits plus one, 1 byte for a boolean or
 * null, 3 bytes plus 1 per element for a map or list. The in-memory rows hold the domain record
 * without the key and index attributes the table adds (under 200 bytes), so an item this close to
 * the limit may pass here and fail on DynamoDB; test/integration/contracts/unit-of-work.test.ts breaks it by kilobytes.
 */
export function itemSizeBytes(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (typeof value === 'number') return Math.ceil(String(Math.abs(value)).replace(/[.-]|e.*$|^0+/g, '').length / 2) + 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (Array.isArray(value)) return 3 + value.reduce<number>((sum, element) => sum + 1 + itemSizeBytes(element), 0);
  return (
    3 +
    Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .reduce((sum, [name, field]) => sum + 1 + Buffer.byteLength(name, 'utf8') + itemSizeBytes(field), 0)
  );
}

/** The one item of the table an op writes or checks, named as the adapter's key layout names it. */
export function itemOf(op: WriteOp): string {
  switch (op.kind) {
    case 'createJob':
      return `JOB#${op.job.id}`;
    case 'updateJob':
      return `JOB#${op.jobId}`;
    case 'moveBalance':
    case 'expectKeysVersion':
      return `BALANCE#${op.orgId}#${op.livemode}`;
    case 'appendLedger':
      return `LEDGER#${op.entry.org_id}#${op.entry.livemode}#${op.entry.id}`;
    case 'consumeUpload':
      return `UPLOAD#${op.uploadRef}`;
    case 'completeIdempotency':
      return `IDEM#${op.scopeKey}`;
    case 'bumpUsage':
      return `USAGE#${op.orgId}#${op.date}#${op.livemode}#${op.endpoint}`;
    case 'claimProviderEvent':
      return `PROVIDEREVENT#${op.provider}#${op.eventId}`;
    case 'updateOrganization':
      return `ORG#${op.orgId}`;
    case 'createEvent':
      return `EVT#${op.record.event.id}`;
    case 'expectNoWebhookEndpoints':
      return `WEBHOOKENDPOINTS#${op.orgId}`;
    case 'countRequest':
      return `RL#${op.counterKey}`;
    case 'countKeySpend':
      return `SPEND#${op.counterKey}`;
    case 'createBatch':
      return `BATCH#${op.batch.id}`;
    case 'updateBatch':
      return `BATCH#${op.batchId}`;
    case 'putBatchLine':
      return `LINE#${op.line.batch_id}#${op.line.line}`;
  }
}

/**
 * What DynamoDB refuses before it looks at any condition, with its own words: more than 100 writes,
 * one item twice (an expectation on a balance rides on that balance's move, as the adapter folds
 * it), and a new item over 400 KB.
 */
export function refuseInvalidRequest(ops: readonly WriteOp[]): void {
  if (ops.length > MAX_TRANSACTION_WRITES)
    throw new TransactionInvalid(
      `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to ${MAX_TRANSACTION_WRITES}`,
    );
  const seen = new Set<string>();
  for (const op of ops) {
    const folded =
      op.kind === 'expectKeysVersion' &&
      ops.some((other) => other.kind === 'moveBalance' && itemOf(other) === itemOf(op));
    if (folded) continue;
    const item = itemOf(op);
    if (seen.has(item))
      throw new TransactionInvalid('Transaction request cannot include multiple operations on one item');
    seen.add(item);
  }
  for (const op of ops) {
    const created = createdItem(op);
    if (created !== null && itemSizeBytes(created) > MAX_ITEM_BYTES)
      throw new TransactionInvalid('Item size has exceeded the maximum allowed size');
  }
}

/** The record a put writes whole (null for an update, whose size depends on the item it finds). */
function createdItem(op: WriteOp): unknown {
  switch (op.kind) {
    case 'createJob':
      return op.job;
    case 'appendLedger':
      return op.entry;
    case 'createEvent':
      return op.record;
    case 'createBatch':
      return op.batch;
    case 'putBatchLine':
      return op.line;
    default:
      return null;
  }
}

/** An update that leaves its item over 400 KB cancels the transaction, as DynamoDB's `ValidationError` reason does. */
export function refuseOversizedUpdate(updated: unknown): void {
  if (itemSizeBytes(updated) > MAX_ITEM_BYTES)
    throw new TransactionInvalid('Item size to update has exceeded the maximum allowed size');
}
