import {
  TransactionInvalid,
  TransactionRefused,
  type UnitOfWork,
  type WriteOp,
} from '../../domain/ports/transactions.js';
import { dynamodbSdk } from '../aws-sdk.js';
import { batchItem, batchLineItem } from './batch-store.js';
import { refusedItems } from './conditions.js';
import type { DocumentTransactItem } from './hot-path-calls.js';
import { completeIdempotencyUpdate } from './idempotency-store.js';
import { jobItem } from './job-store.js';
import { keys } from './keys.js';
import { RATE_LIMIT_TTL_SLACK_SECONDS, rateLimitCounterKey } from './rate-limit-counter.js';
import { stageItem } from './stage-items.js';
import type { Table } from './table.js';
import { TABLE_DEFINITION } from './table-definition.js';
import { eventItem } from './webhook-store.js';

const { TransactionCanceledException } = dynamodbSdk;

/** Cancellation reasons that say the transaction itself is at fault (an item grown past 400 KB), not the data. */
const DEFECT_REASONS = new Set(['ValidationError', 'ItemCollectionSizeLimitExceeded']);

/**
 * DynamoDB's refusals of the request itself (over 100 writes, one item twice, an item over 400 KB)
 * as the domain's one error for them; anything else as it came.
 */
function asTransactionInvalid(error: unknown): unknown {
  if ((error as { name?: string } | null)?.name === 'ValidationException')
    return new TransactionInvalid((error as Error).message);
  if (!(error instanceof TransactionCanceledException)) return error;
  const defects = (error.CancellationReasons ?? []).filter((reason) => DEFECT_REASONS.has(reason.Code ?? ''));
  if (defects.length === 0) return error;
  return new TransactionInvalid(defects.map((reason) => reason.Message ?? reason.Code).join('; '));
}

const MAX_CONFLICT_RETRIES = 10;

type KeysVersionOp = Extract<WriteOp, { kind: 'expectKeysVersion' }>;
type BalanceOp = Extract<WriteOp, { kind: 'moveBalance' }>;
type UpdateJobOp = Extract<WriteOp, { kind: 'updateJob' }>;

/** One item of the transaction, and which of its ops refused it, given the item as it was. */
interface PlannedItem {
  item: DocumentTransactItem;
  refusedBy(current: Record<string, unknown> | undefined): WriteOp['kind'][];
}

const sameBalance = (a: { orgId: string; livemode: boolean }, b: { orgId: string; livemode: boolean }) =>
  a.orgId === b.orgId && a.livemode === b.livemode;

function keysVersionCondition(op: KeysVersionOp): { expression: string; values: Record<string, unknown> } {
  // the version starts absent: the first revocation or rotation of the mode ADDs it to 1
  return op.version === 0
    ? { expression: 'attribute_not_exists(keys_version)', values: {} }
    : { expression: 'keys_version = :keysVersion', values: { ':keysVersion': op.version } };
}

function keysVersionOf(current: Record<string, unknown> | undefined): number {
  return Number(current?.keys_version ?? 0);
}

/**
 * DynamoDB Local makes a transaction wait for the locks of items another transaction holds, and
 * gives up with this error ("This request will succeed in actual DynamoDB API") when the wait is
 * long, as it is for a settlement behind a batch's group of lines on a busy machine. DynamoDB
 * cancels such a transaction at once with a `TransactionConflict` instead: both wrote nothing and
 * are retried alike.
 */
function isLockTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'InternalServerError' && /waiting for a lock/.test(error.message);
}

/** Maps domain write ops onto one TransactWriteItems call. */
export class DynamoUnitOfWork implements UnitOfWork {
  constructor(private readonly table: Table) {}

  async commit(ops: readonly WriteOp[]): Promise<void> {
    const planned = this.plan(ops);
    const items = planned.map(({ item }) => item);
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.table.hot.transactWrite(items);
        return;
      } catch (raised) {
        const error = asTransactionInvalid(raised);
        if (!(error instanceof TransactionCanceledException) && !isLockTimeout(error)) throw error;
        const refused =
          error instanceof TransactionCanceledException
            ? refusedItems(error).flatMap(({ index, current }) => planned[index]!.refusedBy(current))
            : [];
        if (refused.length > 0) throw new TransactionRefused(refused);
        // a concurrent transaction touched the same item (the balance, typically): retry with jitter
        if (attempt >= MAX_CONFLICT_RETRIES) throw new TransactionRefused([]);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** Math.min(attempt, 5)));
      }
    }
  }

  /**
   * One item per op, except a keys-version expectation, which rides on the same transaction's update
   * of that balance (a transaction may touch an item once, and the condition then costs nothing).
   */
  private plan(ops: readonly WriteOp[]): PlannedItem[] {
    const versions = ops.filter((op): op is KeysVersionOp => op.kind === 'expectKeysVersion');
    const balances = ops.filter((op): op is BalanceOp => op.kind === 'moveBalance');
    const planned: PlannedItem[] = [];
    for (const op of ops) {
      if (op.kind === 'expectKeysVersion') {
        if (!balances.some((balance) => sameBalance(balance, op))) planned.push(this.keysVersionCheck(op));
        continue;
      }
      if (op.kind === 'updateJob' && op.stage) {
        // the stage is an item of its own: the job's update carries the conditions, the stage's put none
        planned.push({ item: this.toItem(op), refusedBy: () => [op.kind] });
        planned.push({ item: this.stagePut(op.jobId, op.stage), refusedBy: () => [op.kind] });
        continue;
      }
      const version = op.kind === 'moveBalance' ? versions.find((candidate) => sameBalance(candidate, op)) : undefined;
      planned.push(
        op.kind === 'moveBalance' && version
          ? this.balanceMoveWithKeysVersion(op, version)
          : { item: this.toItem(op), refusedBy: () => [op.kind] },
      );
    }
    return planned;
  }

  private stagePut(jobId: string, stage: NonNullable<UpdateJobOp['stage']>): DocumentTransactItem {
    return { Put: { TableName: this.table.name, Item: stageItem(jobId, stage.record, stage.files) } };
  }

  private keysVersionCheck(op: KeysVersionOp): PlannedItem {
    const { expression, values } = keysVersionCondition(op);
    return {
      item: {
        ConditionCheck: {
          TableName: this.table.name,
          Key: keys.balance(op.orgId, op.livemode),
          ConditionExpression: expression,
          ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        },
      },
      refusedBy: () => [op.kind],
    };
  }

  private balanceMoveWithKeysVersion(move: BalanceOp, version: KeysVersionOp): PlannedItem {
    const update = (this.toItem(move) as { Update: NonNullable<DocumentTransactItem['Update']> }).Update;
    const { expression, values } = keysVersionCondition(version);
    return {
      // the balance as it was tells which condition refused: the amount, the version, or both
      item: {
        Update: {
          ...update,
          ConditionExpression: `(${update.ConditionExpression}) AND ${expression}`,
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...values },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      refusedBy: (current) => {
        const refused: WriteOp['kind'][] = keysVersionOf(current) === version.version ? [] : [version.kind];
        const amount = Number(current?.amount);
        if (!current || Number.isNaN(amount) || (move.mustStayNonNegative && amount + move.delta < 0))
          refused.push(move.kind);
        return refused.length ? refused : [move.kind];
      },
    };
  }

  private toItem(op: Exclude<WriteOp, KeysVersionOp>): DocumentTransactItem {
    const TableName = this.table.name;
    switch (op.kind) {
      case 'createJob':
        return { Put: { TableName, Item: jobItem(op.job), ConditionExpression: 'attribute_not_exists(pk)' } };
      case 'updateJob': {
        const names: Record<string, string> = { '#status': 'status' };
        const values: Record<string, unknown> = {};
        const sets = Object.entries(op.set).map(([field, value], i) => {
          names[`#f${i}`] = field;
          values[`:v${i}`] = value;
          return `#f${i} = :v${i}`;
        });
        const expected = op.expectStatus.map((status, i) => {
          values[`:expect${i}`] = status;
          return `:expect${i}`;
        });
        const fieldConditions = Object.entries(op.expectFields ?? {}).map(([field, value], i) => {
          names[`#x${i}`] = field;
          values[`:x${i}`] = value;
          return ` AND #x${i} = :x${i}`;
        });
        if (op.expectDeadlineAfterMs !== undefined) {
          names['#deadline'] = 'deadline_at_ms';
          values[':settledAtMs'] = op.expectDeadlineAfterMs;
          fieldConditions.push(' AND (attribute_not_exists(#deadline) OR #deadline > :settledAtMs)');
        }
        return {
          Update: {
            TableName,
            Key: keys.job(op.jobId),
            ConditionExpression: `#status IN (${expected.join(', ')})${fieldConditions.join('')}`,
            UpdateExpression: `SET ${sets.join(', ')}${op.leavesQueue ? ' REMOVE gsi3pk, gsi3sk' : ''}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        };
      }
      case 'moveBalance':
        return {
          Update: {
            TableName,
            Key: keys.balance(op.orgId, op.livemode),
            UpdateExpression: 'ADD amount :delta',
            ConditionExpression: op.mustStayNonNegative
              ? 'attribute_exists(pk) AND amount >= :needed'
              : 'attribute_exists(pk)',
            ExpressionAttributeValues: op.mustStayNonNegative
              ? { ':delta': op.delta, ':needed': -op.delta }
              : { ':delta': op.delta },
          },
        };
      case 'completeIdempotency':
        return {
          Update: completeIdempotencyUpdate(TableName, op.scopeKey, op.lockToken, op.response, op.settlingUntil),
        };
      case 'consumeUpload':
        return {
          Update: {
            TableName,
            Key: keys.upload(op.uploadRef),
            UpdateExpression: 'SET consumed_by = :job',
            ConditionExpression: 'attribute_exists(pk) AND consumed_by = :nobody',
            ExpressionAttributeValues: { ':job': op.jobId, ':nobody': null },
          },
        };
      case 'appendLedger':
        return {
          Put: {
            TableName,
            Item: { ...keys.ledger(op.entry.org_id, op.entry.livemode, op.entry.id), ...op.entry },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        };
      case 'bumpUsage': {
        const values: Record<string, unknown> = {
          ':org': op.orgId,
          ':date': op.date,
          ':endpoint': op.endpoint,
          ':livemode': op.livemode,
        };
        const adds = Object.values(op.deltas).map((delta, i) => {
          values[`:d${i}`] = delta;
          return `#c${i} :d${i}`;
        });
        const names: Record<string, string> = {
          '#date': 'date',
          ...Object.fromEntries(Object.keys(op.deltas).map((counter, i) => [`#c${i}`, counter])),
        };
        return {
          Update: {
            TableName,
            Key: keys.usage(op.orgId, op.date, op.livemode, op.endpoint),
            UpdateExpression: `SET org_id = :org, #date = :date, endpoint = :endpoint, livemode = :livemode${adds.length ? ` ADD ${adds.join(', ')}` : ''}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        };
      }
      case 'claimProviderEvent':
        return {
          Put: {
            TableName,
            Item: { ...keys.providerEvent(op.provider, op.eventId), org_id: op.orgId, applied_at: op.at },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        };
      case 'createEvent':
        return {
          Put: {
            TableName,
            Item: eventItem(op.record, op.dispatchDueAt),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        };
      case 'expectNoWebhookEndpoints':
        return {
          ConditionCheck: {
            TableName,
            Key: keys.webhookEndpointCount(op.orgId),
            ConditionExpression: 'endpoints = :none',
            ExpressionAttributeValues: { ':none': 0 },
          },
        };
      case 'countRequest': {
        const hits = op.hits ?? 1;
        // the window must hold every hit: at most `limit - hits` before them (more hits than the
        // limit never fit, and a comparison with an absent count is false)
        const room = op.limit - hits;
        return {
          Update: {
            TableName,
            Key: rateLimitCounterKey(op.counterKey),
            UpdateExpression: 'ADD hits :hits SET #ttl = if_not_exists(#ttl, :ttl)',
            ConditionExpression: room >= 0 ? 'attribute_not_exists(hits) OR hits <= :room' : 'hits <= :room',
            ExpressionAttributeNames: { '#ttl': TABLE_DEFINITION.ttlAttribute },
            ExpressionAttributeValues: {
              ':hits': hits,
              ':ttl': op.expiresAt + RATE_LIMIT_TTL_SLACK_SECONDS,
              ':room': room,
            },
          },
        };
      }
      case 'countKeySpend': {
        const names: Record<string, string> = {
          '#ttl': TABLE_DEFINITION.ttlAttribute,
          ...Object.fromEntries(op.fields.map((field, i) => [`#f${i}`, field])),
        };
        if (op.limit) names['#limited'] = op.limit.field;
        return {
          Update: {
            TableName,
            Key: keys.keySpend(op.counterKey),
            UpdateExpression: `ADD ${op.fields.map((_, i) => `#f${i} :delta`).join(', ')} SET #ttl = if_not_exists(#ttl, :ttl)`,
            // the limited period may stand at most at the limit once the delta is added; an absent
            // field stands at 0, so a first spend larger than the limit is refused too
            ...(op.limit
              ? {
                  ConditionExpression:
                    op.limit.credits - op.delta >= 0
                      ? 'attribute_not_exists(#limited) OR #limited <= :room'
                      : '#limited <= :room',
                }
              : {}),
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: {
              ':delta': op.delta,
              ':ttl': op.expiresAt,
              ...(op.limit ? { ':room': op.limit.credits - op.delta } : {}),
            },
          },
        };
      }
      case 'createBatch':
        return { Put: { TableName, Item: batchItem(op.batch), ConditionExpression: 'attribute_not_exists(pk)' } };
      case 'putBatchLine':
        return { Put: { TableName, Item: batchLineItem(op.line), ConditionExpression: 'attribute_not_exists(pk)' } };
      case 'updateBatch':
        return { Update: { TableName, Key: keys.batch(op.batchId), ...batchUpdate(op) } };
      case 'updateOrganization': {
        const fields = Object.entries(op.set);
        return {
          Update: {
            TableName,
            Key: keys.organization(op.orgId),
            ConditionExpression: 'attribute_exists(pk)',
            UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
            ExpressionAttributeNames: Object.fromEntries(fields.map(([field], i) => [`#f${i}`, field])),
            ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
          },
        };
      }
    }
  }
}

/** A batch's SETs, ADDs and conditions; a new lease end moves it on the due index, a finished batch leaves it. */
function batchUpdate(op: Extract<WriteOp, { kind: 'updateBatch' }>): {
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(op.set ?? {}).map(([field, value], i) => {
    names[`#s${i}`] = field;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  if (op.set?.lease_until !== undefined && !op.leavesDue) {
    values[':due'] = keys.dueAt(op.set.lease_until, op.batchId);
    sets.push('gsi3sk = :due');
  }
  const adds = Object.entries(op.add ?? {}).map(([counter, delta], i) => {
    names[`#a${i}`] = counter;
    values[`:a${i}`] = delta;
    return `#a${i} :a${i}`;
  });
  const conditions = ['attribute_exists(pk)'];
  if (op.expectStatus) {
    names['#status'] = 'status';
    const expected = op.expectStatus.map((status, i) => {
      values[`:e${i}`] = status;
      return `:e${i}`;
    });
    conditions.push(`#status IN (${expected.join(', ')})`);
  }
  if (op.expectLease && 'token' in op.expectLease) {
    values[':token'] = op.expectLease.token;
    conditions.push('lease_token = :token');
  } else if (op.expectLease) {
    values[':free'] = op.expectLease.freeAt;
    values[':nobody'] = null;
    conditions.push('(lease_token = :nobody OR lease_until <= :free)');
  }
  const clauses = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
    op.leavesDue ? 'REMOVE gsi3pk, gsi3sk' : '',
  ].filter(Boolean);
  return {
    UpdateExpression: clauses.join(' '),
    ConditionExpression: conditions.join(' AND '),
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}
