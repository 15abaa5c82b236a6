import * as z from 'zod/mini';
import { BATCH_ID_PATTERN } from '../../domain/kernel/ids.js';
import {
  BatchListQuerySchema,
  BatchListSchema,
  BatchSchema,
  CreateBatchSchema,
  DashboardBatchListQuerySchema,
} from '../../schemas/batches.js';
import { describe } from '../../schemas/zod.js';
import { defineRoute, JSON_BODY_BYTES, managementRoute } from './define.js';
import { CANCEL_ACCESS } from './jobs.js';

// Batches (docs/batches.md): one JSONL file of calls, each line its own job.

const TAG = 'Batches';
const BatchIdParams = z.object({ id: describe(z.string().check(z.regex(BATCH_ID_PATTERN)), 'batch id') });

export const createBatch = defineRoute({
  id: 'create-batch',
  method: 'POST',
  path: '/v1/batches',
  summary: 'Create a batch from a JSONL upload: each line is admitted as its own job (docs/batches.md)',
  tag: TAG,
  auth: 'api_key',
  body: CreateBatchSchema,
  responses: {
    202: { description: 'the batch, validating; poll it or wait for batch.completed', schema: BatchSchema },
  },
  errors: ['upload_not_found', 'upload_already_consumed', 'endpoint_not_available', 'scope_not_granted'],
  // reads the input file, writes the batch; in this process it then admits the lines (jobs, ledger, the work queue)
  // and, when they are settled already, completes the batch (its output file and batch.completed)
  access: {
    table: 'readwrite',
    enqueue: true,
    enqueueWebhooks: true,
    readObjects: ['uploads', 'outputs'],
    writeObjects: ['outputs'],
  },
  handler: 'batches#createBatch',
  timeoutSeconds: 30,
  maxBodyBytes: JSON_BODY_BYTES,
});

export const getBatch = defineRoute({
  id: 'get-batch',
  method: 'GET',
  path: '/v1/batches/{id}',
  summary: 'Retrieve a batch: its status, counts, credits and output file',
  tag: TAG,
  auth: 'api_key',
  params: BatchIdParams,
  notFound: 'batch_not_found',
  responses: { 200: { description: 'the batch', schema: BatchSchema } },
  errors: ['scope_not_granted'],
  access: { table: 'count', readObjects: ['outputs'] },
  handler: 'batches#getBatch',
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

export const listBatches = defineRoute({
  id: 'list-batches',
  method: 'GET',
  path: '/v1/batches',
  summary: "List the key's mode's batches, newest first",
  tag: TAG,
  auth: 'api_key',
  query: BatchListQuerySchema,
  responses: { 200: { description: 'a page of batches', schema: BatchListSchema } },
  errors: [],
  access: { table: 'count', readObjects: ['outputs'] },
  handler: 'batches#listBatches',
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

export const cancelBatch = defineRoute({
  id: 'cancel-batch',
  method: 'POST',
  path: '/v1/batches/{id}/cancel',
  summary: 'Cancel a batch: no further line is admitted, and its queued jobs are canceled and released',
  tag: TAG,
  auth: 'api_key',
  params: BatchIdParams,
  notFound: 'batch_not_found',
  responses: { 200: { description: 'the batch, canceling or canceled', schema: BatchSchema } },
  errors: ['batch_not_cancelable', 'scope_not_granted'],
  // cancels the queued jobs, as POST /v1/jobs/{id}/cancel does
  access: CANCEL_ACCESS,
  handler: 'batches#cancelBatch',
  timeoutSeconds: 30,
  maxBodyBytes: 0,
});

// the dashboard's (management surface): every key's batches, both modes

export const listOrganizationBatches = managementRoute({
  id: 'list-organization-batches',
  method: 'GET',
  path: '/mgmt/v1/batches',
  minimumRole: 'member',
  summary: "The organisation's batches across every key and both modes, newest first",
  query: DashboardBatchListQuerySchema,
  responses: { 200: { description: 'a page of batches', schema: BatchListSchema } },
  errors: [],
  access: { table: 'read', readObjects: ['outputs'] },
  handler: 'organization-batches#listOrganizationBatches',
});

export const getOrganizationBatch = managementRoute({
  id: 'get-organization-batch',
  method: 'GET',
  path: '/mgmt/v1/batches/{id}',
  minimumRole: 'member',
  summary: 'A batch as GET /v1/batches/{id} shows it, either mode',
  params: BatchIdParams,
  notFound: 'batch_not_found',
  responses: { 200: { description: 'the batch', schema: BatchSchema } },
  errors: [],
  access: { table: 'read', readObjects: ['outputs'] },
  handler: 'organization-batches#getOrganizationBatch',
});

export const cancelOrganizationBatch = managementRoute({
  id: 'cancel-organization-batch',
  method: 'POST',
  path: '/mgmt/v1/batches/{id}/cancel',
  minimumRole: 'admin',
  summary: 'What POST /v1/batches/{id}/cancel does, for any batch of the organisation in either mode',
  params: BatchIdParams,
  notFound: 'batch_not_found',
  responses: { 200: { description: 'the batch, canceling or canceled', schema: BatchSchema } },
  errors: ['batch_not_cancelable'],
  access: CANCEL_ACCESS,
  handler: 'organization-batches#cancelOrganizationBatch',
  timeoutSeconds: 30,
});

export const BATCH_ROUTES = [
  createBatch,
  getBatch,
  listBatches,
  cancelBatch,
  listOrganizationBatches,
  getOrganizationBatch,
  cancelOrganizationBatch,
] as const;
