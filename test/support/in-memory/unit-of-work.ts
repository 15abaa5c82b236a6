import type { BatchCounters } from '../../../lambdas/domain/batches/batch.js';
import type { JobRecord } from '../../../lambdas/domain/jobs/job.js';
import type { UsageRow } from '../../../lambdas/domain/money/usage.js';
import { TransactionRefused, type UnitOfWork, type WriteOp } from '../../../lambdas/domain/ports/transactions.js';
import { refuseInvalidRequest, refuseOversizedUpdate } from './dynamodb-limits.js';
import { balanceKey, batchLineKey, copy, type InMemoryTables } from './tables.js';

/** The job with its one changed stage in place and that stage's files added (`updateJob`'s `stage`). */
function withStage(job: JobRecord, stage: Extract<WriteOp, { kind: 'updateJob' }>['stage']): JobRecord {
  if (!stage) return job;
  return {
    ...job,
    stages: (job.stages ?? []).map((existing) => (existing.stage === stage.record.stage ? stage.record : existing)),
    files: { ...job.files, ...stage.files },
  };
}

function usageKey(op: Extract<WriteOp, { kind: 'bumpUsage' }>): string {
  return `${op.orgId}#${op.date}#${op.endpoint}#${op.livemode ? 'live' : 'test'}`;
}

/**
 * All or nothing, as `TransactWriteItems`: every op's condition is judged against the rows as they
 * were before the transaction, and only when none refuses are all of them applied. A refusal names
 * every op that refused, as the adapter reads DynamoDB's cancellation reasons. DynamoDB's own limits
 * hold here too (dynamodb-limits.ts), so a transaction AWS would refuse is refused in unit tests.
 */
export class InMemoryUnitOfWork implements UnitOfWork {
  constructor(private readonly tables: InMemoryTables) {}

  async commit(ops: readonly WriteOp[]): Promise<void> {
    refuseInvalidRequest(ops);
    const refused = ops.filter((op) => this.refuses(op)).map((op) => op.kind);
    if (refused.length > 0) throw new TransactionRefused(refused);
    for (const op of ops) refuseOversizedUpdate(this.updated(op));
    for (const op of ops) this.apply(op);
  }

  /** The record an update leaves behind (null for other ops), to be sized before anything is applied. */
  private updated(op: WriteOp): unknown {
    const t = this.tables;
    switch (op.kind) {
      case 'updateJob':
        return withStage({ ...t.jobs.get(op.jobId)!, ...op.set }, op.stage);
      case 'updateBatch':
        return { ...t.batches.get(op.batchId), ...op.set };
      case 'updateOrganization':
        return { ...t.organizations.get(op.orgId), ...op.set };
      case 'completeIdempotency':
        return { ...t.idempotency.get(op.scopeKey), response: op.response };
      default:
        return null;
    }
  }

  private refuses(op: WriteOp): boolean {
    const t = this.tables;
    switch (op.kind) {
      case 'createJob':
        return t.jobs.has(op.job.id);
      case 'updateJob': {
        const job = t.jobs.get(op.jobId);
        if (!job || !op.expectStatus.includes(job.status)) return true;
        if (
          op.expectDeadlineAfterMs !== undefined &&
          job.deadline_at_ms !== undefined &&
          job.deadline_at_ms <= op.expectDeadlineAfterMs
        )
          return true;
        return Object.entries(op.expectFields ?? {}).some(
          ([field, value]) => (job as unknown as Record<string, unknown>)[field] !== value,
        );
      }
      case 'moveBalance': {
        const balance = t.balances.get(balanceKey(op.orgId, op.livemode));
        return !balance || (op.mustStayNonNegative && balance.amount + op.delta < 0);
      }
      case 'appendLedger':
        return t.ledger.has(op.entry.id);
      case 'consumeUpload': {
        const upload = t.uploads.get(op.uploadRef);
        return !upload || upload.consumed_by !== null;
      }
      case 'completeIdempotency':
        return t.idempotency.get(op.scopeKey)?.lock_token !== op.lockToken;
      case 'bumpUsage':
        return false;
      case 'claimProviderEvent':
        return t.providerEvents.has(`${op.provider}#${op.eventId}`);
      case 'updateOrganization':
        return !t.organizations.has(op.orgId);
      case 'createEvent':
        return t.events.has(op.record.event.id);
      case 'expectNoWebhookEndpoints':
        return t.endpointCounts.get(op.orgId) !== 0;
      case 'expectKeysVersion':
        return (t.balances.get(balanceKey(op.orgId, op.livemode))?.keysVersion ?? 0) !== op.version;
      case 'countRequest':
        return (t.rateLimitHits.get(op.counterKey) ?? 0) + (op.hits ?? 1) > op.limit;
      case 'countKeySpend':
        return (
          op.limit !== null && (t.keySpend.get(`${op.counterKey}#${op.limit.field}`) ?? 0) + op.delta > op.limit.credits
        );
      case 'createBatch':
        return t.batches.has(op.batch.id);
      case 'putBatchLine':
        return t.batchLines.has(batchLineKey(op.line.batch_id, op.line.line));
      case 'updateBatch': {
        const batch = t.batches.get(op.batchId);
        if (!batch || (op.expectStatus && !op.expectStatus.includes(batch.status))) return true;
        if (op.expectLease && 'token' in op.expectLease) return batch.lease_token !== op.expectLease.token;
        if (op.expectLease) return batch.lease_token !== null && batch.lease_until > op.expectLease.freeAt;
        return false;
      }
    }
  }

  private apply(op: WriteOp): void {
    const t = this.tables;
    switch (op.kind) {
      case 'createJob':
        t.jobs.set(op.job.id, copy(op.job));
        t.jobsDueAt.set(op.job.id, Math.min(op.job.redrive_at, op.job.queue_deadline));
        return;
      case 'updateJob':
        t.jobs.set(op.jobId, withStage({ ...t.jobs.get(op.jobId)!, ...copy(op.set) }, copy(op.stage)));
        if (op.leavesQueue) t.jobsDueAt.delete(op.jobId);
        return;
      case 'moveBalance':
        t.balances.get(balanceKey(op.orgId, op.livemode))!.amount += op.delta;
        return;
      case 'appendLedger':
        t.ledger.set(op.entry.id, copy(op.entry));
        return;
      case 'consumeUpload':
        t.uploads.get(op.uploadRef)!.consumed_by = op.jobId;
        return;
      case 'completeIdempotency': {
        const record = t.idempotency.get(op.scopeKey)!;
        const { settling_until: _settling, ...rest } = record;
        t.idempotency.set(op.scopeKey, {
          ...rest,
          status: 'completed',
          response: copy(op.response),
          ...(op.settlingUntil !== undefined ? { settling_until: op.settlingUntil } : {}),
        });
        return;
      }
      case 'bumpUsage': {
        const key = usageKey(op);
        const row: UsageRow = t.usage.get(key)?.row ?? {
          date: op.date,
          endpoint: op.endpoint,
          livemode: op.livemode,
          requests: 0,
          succeeded: 0,
          failed: 0,
          expired: 0,
          canceled: 0,
          billable_units: 0,
          credits_charged: 0,
        };
        for (const [counter, delta] of Object.entries(op.deltas)) row[counter as keyof typeof op.deltas] += delta;
        t.usage.set(key, { orgId: op.orgId, row });
        return;
      }
      case 'claimProviderEvent':
        t.providerEvents.add(`${op.provider}#${op.eventId}`);
        return;
      case 'updateOrganization':
        t.organizations.set(op.orgId, { ...t.organizations.get(op.orgId)!, ...op.set });
        return;
      case 'createEvent':
        t.events.set(op.record.event.id, { record: copy(op.record), dispatchDueAt: op.dispatchDueAt });
        return;
      case 'countRequest':
        t.rateLimitHits.set(op.counterKey, (t.rateLimitHits.get(op.counterKey) ?? 0) + (op.hits ?? 1));
        return;
      case 'countKeySpend':
        for (const field of op.fields)
          t.keySpend.set(`${op.counterKey}#${field}`, (t.keySpend.get(`${op.counterKey}#${field}`) ?? 0) + op.delta);
        return;
      case 'createBatch':
        t.batches.set(op.batch.id, copy(op.batch));
        return;
      case 'putBatchLine':
        t.batchLines.set(batchLineKey(op.line.batch_id, op.line.line), copy(op.line));
        return;
      case 'updateBatch': {
        const batch = { ...t.batches.get(op.batchId)!, ...copy(op.set ?? {}) };
        for (const [counter, delta] of Object.entries(op.add ?? {})) batch[counter as keyof BatchCounters] += delta;
        t.batches.set(op.batchId, batch);
        return;
      }
      case 'expectNoWebhookEndpoints':
      case 'expectKeysVersion':
        return;
    }
  }
}
