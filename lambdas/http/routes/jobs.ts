import * as z from 'zod/mini';
import { JOB_ID_PATTERN } from '../../domain/kernel/ids.js';
import {
  CatalogueSchema,
  JobListQuerySchema,
  JobListSchema,
  JobSchema,
  RedactionSchema,
} from '../../schemas/records.js';
import { describe } from '../../schemas/zod.js';
import { type DataAccess, defineRoute } from './define.js';

const TAG = 'Jobs';
export const JobIdParams = z.object({ id: describe(z.string().check(z.regex(JOB_ID_PATTERN)), 'job id') });

export const getJob = defineRoute({
  id: 'get-job',
  method: 'GET',
  path: '/v1/jobs/{id}',
  summary: 'Retrieve a job (at most once a second per job)',
  tag: TAG,
  auth: 'api_key',
  params: JobIdParams,
  notFound: 'job_not_found',
  responses: { 200: { description: 'the job', schema: JobSchema } },
  // 403: a job of another organisation (domain/jobs/job-access.ts)
  errors: ['scope_not_granted'],
  // authenticate (plus the polling counter), read the job, sign result URLs
  access: { table: 'count', readObjects: ['outputs'] },
  handler: 'jobs#getJob',
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

export const listJobs = defineRoute({
  id: 'list-jobs',
  method: 'GET',
  path: '/v1/jobs',
  summary: "List the key's jobs, newest first",
  tag: TAG,
  auth: 'api_key',
  query: JobListQuerySchema,
  responses: { 200: { description: 'a page of jobs', schema: JobListSchema } },
  errors: [],
  access: { table: 'count', readObjects: ['outputs'] },
  handler: 'jobs#listJobs',
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

/**
 * Canceling: the cancel transaction releases the reservation, no work is enqueued. Canceling a
 * batch's last job completes the batch: its output file (reading its input file for lines never
 * admitted) and `batch.completed` (docs/batches.md).
 */
export const CANCEL_ACCESS: DataAccess = {
  table: 'readwrite',
  readObjects: ['outputs', 'uploads'],
  writeObjects: ['outputs'],
  enqueueWebhooks: true,
};

export const cancelJob = defineRoute({
  id: 'cancel-job',
  method: 'POST',
  path: '/v1/jobs/{id}/cancel',
  summary: 'Cancel a queued job; its whole reservation is released',
  tag: TAG,
  auth: 'api_key',
  params: JobIdParams,
  notFound: 'job_not_found',
  responses: { 200: { description: 'the canceled job', schema: JobSchema } },
  errors: ['job_not_cancelable', 'scope_not_granted'],
  access: CANCEL_ACCESS,
  handler: 'jobs#cancelJob',
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

/**
 * What deleting a job's data takes: the job, its stage jobs and events in the table; listing its
 * folders and deleting its objects (multipart inputs, consumed uploads, produced files). It reads
 * no object: existence comes from the listing.
 */
export const REDACTION_ACCESS: DataAccess = {
  table: 'readwrite',
  listObjects: true,
  deleteObjects: ['inputs', 'uploads', 'outputs'],
};

export const redactJob = defineRoute({
  id: 'redact-job',
  method: 'POST',
  path: '/v1/jobs/{id}/redact',
  summary: "Delete a settled job's input and output files and set its result to null for good (docs/data-retention.md)",
  tag: TAG,
  auth: 'api_key',
  params: JobIdParams,
  notFound: 'job_not_found',
  responses: {
    200: {
      description: 'the redaction; a repeated call answers the first time and files_deleted 0',
      schema: RedactionSchema,
    },
  },
  errors: ['job_not_redactable', 'scope_not_granted'],
  access: REDACTION_ACCESS,
  handler: 'jobs#redactJob',
  // an inspection lists and deletes the folders of its eight stage jobs too
  timeoutSeconds: 30,
  maxBodyBytes: 0,
});

export const listEndpoints = defineRoute({
  id: 'list-endpoints',
  method: 'GET',
  path: '/v1/endpoints',
  summary: 'The endpoint catalogue: availability, metering, prices, wait support',
  tag: TAG,
  auth: 'api_key',
  responses: { 200: { description: 'every planned or available endpoint', schema: CatalogueSchema } },
  errors: [],
  // authenticate only; the catalogue is code
  access: { table: 'count' },
  handler: 'jobs#listEndpoints',
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

export const JOB_ROUTES = [getJob, listJobs, cancelJob, redactJob, listEndpoints] as const;
