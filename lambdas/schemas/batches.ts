import * as z from 'zod/mini';
import { BATCH_STATUSES } from '../domain/batches/batch.js';
import { BATCH_ID_PATTERN, ID_BODY_PATTERN } from '../domain/kernel/ids.js';
import { Livemode } from './management.js';
import { EndpointSlugSchema, listOf, Timestamp } from './records.js';
import { describe, meta } from './zod.js';

// Batches (docs/internals/batches.md): the request that creates one, the batch, and its list.

export const BatchId = describe(z.string().check(z.regex(new RegExp(`^bat_${ID_BODY_PATTERN}$`))), 'batch id');
export const BatchStatusSchema = meta(z.enum(BATCH_STATUSES), { id: 'BatchStatus', description: 'batch status' });

export const CreateBatchSchema = meta(
  z.strictObject({
    // any slug is read here, so an unknown one is named in the refusal's message (400 parameter_invalid, param endpoint)
    endpoint: describe(
      z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[a-z0-9.]+$/)),
      'the endpoint every line calls, a slug of GET /v1/endpoints (not inspections)',
    ),
    input_file: describe(
      z.string().check(z.regex(/^upl_[A-Za-z0-9]{1,64}$/)),
      'upload_ref of a JSONL file (application/jsonl, at most 10,000 lines): one call body per line, { custom_id?, input_ref | input_refs, params? }',
    ),
  }),
  { id: 'CreateBatch' },
);

const Count = z.int().check(z.minimum(0));

export const BatchSchema = meta(
  z.strictObject({
    id: BatchId,
    object: z.literal('batch'),
    endpoint: EndpointSlugSchema,
    livemode: z.boolean(),
    status: BatchStatusSchema,
    counts: describe(
      z.strictObject({
        total: Count,
        queued: Count,
        processing: Count,
        succeeded: Count,
        failed: Count,
        canceled: Count,
      }),
      'lines by state; they always add up to total. failed counts failed and expired jobs and lines refused before they became jobs',
    ),
    credits: describe(
      z.strictObject({ reserved: Count, charged: Count }),
      'credits its jobs hold now, and were charged',
    ),
    output_file: describe(
      z.nullable(z.strictObject({ url: z.string(), expires_at: Timestamp })),
      'once every line is settled: a signed JSONL URL, one line per input line in order, { line (1-based), custom_id, job_id, status, result, error }',
    ),
    created: Timestamp,
    completed_at: z.nullable(Timestamp),
  }),
  { id: 'Batch' },
);

export const BatchListSchema = listOf(BatchSchema, 'BatchList');

export const BatchListQuerySchema = z.strictObject({
  limit: describe(
    z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    'page size, 1 to 100',
  ),
  starting_after: describe(z.optional(BatchId), 'id of the last batch of the previous page'),
});

/** The dashboard's list: every key's batches, either mode or both. */
export const DashboardBatchListQuerySchema = z.extend(BatchListQuerySchema, { livemode: Livemode });

/** The path parameters of a route on one batch. */
export const BatchIdParams = z.object({ id: describe(z.string().check(z.regex(BATCH_ID_PATTERN)), 'batch id') });
