import * as z from 'zod';
import { ENDPOINT_SLUGS, FAMILIES, ALL_SCENARIOS } from '../domain/catalogue/catalogue.js';
import { ERROR_TYPES } from '../domain/kernel/errors.js';
import { ID_BODY_PATTERN } from '../domain/kernel/ids.js';
import { INSPECTION_STAGE_NAMES } from '../domain/catalogue/inspection-stages.js';
import { JOB_STATUSES } from '../domain/jobs/job.js';

export const Timestamp = z.int().describe('epoch seconds, UTC');
export const JobId = z
  .string()
  .regex(new RegExp(`^job_${ID_BODY_PATTERN}$`))
  .describe('job id');
export const EndpointSlugSchema = z.enum(ENDPOINT_SLUGS).describe('endpoint slug');
export const JobStatusSchema = z.enum(JOB_STATUSES);

export const JobErrorSchema = z
  .object({
    type: z.enum(['processing_error', 'invalid_request', 'internal']),
    code: z.string().describe('e.g. model_inference_failed, unreadable_input, upstream_timeout, job_expired'),
    message: z.string(),
  })
  .meta({ id: 'JobError' });

export const JobStageSchema = z
  .object({
    stage: z.int().min(1).max(8),
    endpoint: EndpointSlugSchema,
    name: z.enum(INSPECTION_STAGE_NAMES),
    model: z.string().optional(),
    status: JobStatusSchema,
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    job_id: JobId.nullable(),
    error: JobErrorSchema.nullable(),
    result: z.record(z.string(), z.unknown()).optional(),
    skipped: z.boolean().default(false),
  })
  .meta({ id: 'JobStage' });

export const JobSchema = z
  .object({
    id: JobId,
    object: z.literal('job'),
    endpoint: EndpointSlugSchema,
    status: JobStatusSchema,
    livemode: z.boolean(),
    created: Timestamp,
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    model_version: z
      .string()
      .regex(/^[^@]+@\d{4}-\d{2}-\d{2}$/)
      .nullable()
      .describe('<model>@<release date>'),
    credits: z.object({ reserved: z.int().min(0), charged: z.int().min(0).nullable() }).meta({ id: 'JobCredits' }),
    result: z.record(z.string(), z.unknown()).nullable().describe('endpoint-specific; see docs/results.md'),
    error: JobErrorSchema.nullable(),
    stages: z.array(JobStageSchema).optional(),
    test_scenario: z.string().optional(),
  })
  .strict()
  .meta({ id: 'Job' });

export const ErrorEnvelopeSchema = z
  .object({
    error: z
      .object({
        type: z.enum(ERROR_TYPES),
        code: z.string(),
        message: z.string(),
        param: z.string().nullable(),
        doc_url: z.url(),
        request_id: z.string().startsWith('req_'),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'ErrorEnvelope' });

export function listOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() })
    .strict()
    .meta({ id });
}

export const JobListSchema = listOf(JobSchema, 'JobList');

const limit = z.coerce.number().int().min(1).max(100).default(20).describe('page size, 1 to 100');
export const JobListQuerySchema = z
  .object({
    limit,
    starting_after: JobId.optional().describe('id of the last job of the previous page'),
    status: JobStatusSchema.optional(),
    endpoint: EndpointSlugSchema.optional(),
  })
  .strict();

export const CatalogueEntrySchema = z
  .object({
    slug: EndpointSlugSchema,
    family: z.enum(FAMILIES),
    name: z.string(),
    availability: z.enum(['available', 'planned']),
    metering: z.enum(['per_image', 'per_request', 'per_second', 'per_inspection']),
    price: z.int().min(0).describe('credits per metered unit; 1 credit = 1 USD cent'),
    currency: z.literal('usd'),
    input_kind: z.enum(['image', 'images', 'audio', 'video', 'document', 'json']),
    accepts_wait: z.boolean(),
    queue_timeout_seconds: z.int().min(1),
    scenarios: z.array(z.enum(ALL_SCENARIOS as [string, ...string[]])),
  })
  .strict()
  .meta({ id: 'CatalogueEntry' });

export const CatalogueSchema = listOf(CatalogueEntrySchema, 'Catalogue');

export const CreateUploadSchema = z
  .object({
    content_type: z.string().min(1).describe('media type of the bytes you will PUT, e.g. video/mp4 or image/jpeg'),
    size_bytes: z
      .int()
      .min(1)
      .max(500 * 1024 * 1024)
      .describe('exact size of the file, at most 500 MB'),
    filename: z.string().min(1).max(255).optional(),
  })
  .strict()
  .meta({ id: 'CreateUpload' });

export const UploadSchema = z
  .object({
    object: z.literal('upload'),
    upload_ref: z.string().startsWith('upl_'),
    url: z.url().describe('presigned PUT address'),
    method: z.literal('PUT'),
    headers: z.object({ 'Content-Type': z.string() }),
    expires_at: Timestamp.describe('when the PUT URL stops working'),
  })
  .strict()
  .meta({ id: 'Upload' });
