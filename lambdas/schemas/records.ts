import * as z from 'zod/mini';
import { ALL_SCENARIOS, ENDPOINT_SLUGS, FAMILIES, FAMILY_NAMES } from '../domain/catalogue/catalogue.js';
import { INSPECTION_STAGE_NAMES } from '../domain/catalogue/inspection-stages.js';
import { JOB_STATUSES } from '../domain/jobs/job.js';
import { JOB_ERROR_CODE_LIST, JOB_ERROR_CODES, type JobErrorCode } from '../domain/jobs/job-errors.js';
import { ALL_UPLOAD_MEDIA_TYPES } from '../domain/jobs/uploads.js';
import { ERROR_CODES, ERROR_TYPES, type ErrorCode } from '../domain/kernel/errors.js';
import { ID_BODY_PATTERN, JOB_ID_PATTERN } from '../domain/kernel/ids.js';
import { describe, meta } from './zod.js';

export const Timestamp = meta(z.int(), { id: 'Timestamp', description: 'epoch seconds, UTC' });
/** The path parameters of a route on one job. */
export const JobIdParams = z.object({ id: describe(z.string().check(z.regex(JOB_ID_PATTERN)), 'job id') });
export const JobId = describe(z.string().check(z.regex(new RegExp(`^job_${ID_BODY_PATTERN}$`))), 'job id');
// The enums a client branches on are named components, so the typed client exports their values (client/src/generated/enums.ts).
export const EndpointSlugSchema = meta(z.enum(ENDPOINT_SLUGS), { id: 'EndpointSlug', description: 'endpoint slug' });
export const JobStatusSchema = meta(z.enum(JOB_STATUSES), { id: 'JobStatus', description: 'job status' });
export const FamilySchema = meta(z.enum(FAMILIES), {
  id: 'Family',
  description: 'endpoint family: what an API key scope covers',
  'x-enumDescriptions': FAMILY_NAMES,
});
export const ErrorTypeSchema = meta(z.enum(ERROR_TYPES), {
  id: 'ErrorType',
  description: 'the class of an error: branch on it for any code you do not know (docs/jobs-and-credits.md, "Errors")',
});
const API_AND_JOB_CODES = [...new Set([...(Object.keys(ERROR_CODES) as ErrorCode[]), ...JOB_ERROR_CODE_LIST])] as [
  ErrorCode | JobErrorCode,
  ...Array<ErrorCode | JobErrorCode>,
];
export const ErrorCodeSchema = meta(z.enum(API_AND_JOB_CODES), {
  id: 'ErrorCode',
  description:
    'what went wrong: the code of an error answer (its page is `doc_url`) or of a failed job (`JobErrorCode`). A later API version may add codes: handle an unknown one by its `type`',
});
export const JobErrorCodeSchema = meta(z.enum(JOB_ERROR_CODE_LIST), {
  id: 'JobErrorCode',
  description:
    'why a job failed or expired (docs/jobs-and-credits.md). A later API version may add codes: handle an unknown one by its `type`',
  'x-enumDescriptions': Object.fromEntries(
    Object.entries(JOB_ERROR_CODES).map(([code, { meaning }]) => [code, meaning]),
  ),
});

export const JobErrorSchema = meta(
  z.object({
    type: z.enum(['processing_error', 'invalid_request', 'internal']),
    code: JobErrorCodeSchema,
    message: z.string(),
  }),
  { id: 'JobError' },
);

export const JobStageSchema = meta(
  z.object({
    stage: z.int().check(z.minimum(1), z.maximum(8)),
    endpoint: EndpointSlugSchema,
    name: z.enum(INSPECTION_STAGE_NAMES),
    model: z.optional(z.string()),
    status: JobStatusSchema,
    started_at: z.nullable(Timestamp),
    completed_at: z.nullable(Timestamp),
    job_id: z.nullable(JobId),
    error: z.nullable(JobErrorSchema),
    result: z.optional(z.record(z.string(), z.unknown())),
    skipped: z._default(z.boolean(), false),
  }),
  { id: 'JobStage' },
);

export const JobSchema = meta(
  z.strictObject({
    id: JobId,
    object: z.literal('job'),
    endpoint: EndpointSlugSchema,
    status: JobStatusSchema,
    livemode: z.boolean(),
    created: Timestamp,
    started_at: z.nullable(Timestamp),
    completed_at: z.nullable(Timestamp),
    model_version: meta(z.nullable(z.string().check(z.regex(/^[^@]+@\d{4}-\d{2}-\d{2}(-fixture)?$/))), {
      id: 'ModelVersion',
      description: '<model>@<release date>; `-fixture` appended when a fixture, not a model, made the result',
    }),
    credits: meta(
      z.object({ reserved: z.int().check(z.minimum(0)), charged: z.nullable(z.int().check(z.minimum(0))) }),
      { id: 'JobCredits' },
    ),
    result: describe(
      z.nullable(z.record(z.string(), z.unknown())),
      'endpoint-specific; see docs/results.md; null for good once the job is redacted (docs/data-retention.md)',
    ),
    error: z.nullable(JobErrorSchema),
    stages: z.optional(z.array(JobStageSchema)),
    test_scenario: z.optional(z.string()),
  }),
  { id: 'Job' },
);

export const RedactionSchema = meta(
  z.strictObject({
    object: z.literal('redaction'),
    job_id: JobId,
    redacted_at: describe(Timestamp, 'when the job was first redacted; a repeated call answers the same time'),
    files_deleted: describe(
      z.int().check(z.minimum(0)),
      'stored objects this call deleted (inputs, uploads the job consumed, produced files, an inspection’s stage files); 0 on a repeated call',
    ),
  }),
  { id: 'Redaction' },
);

export const ErrorEnvelopeSchema = meta(
  z.strictObject({
    error: z.strictObject({
      type: ErrorTypeSchema,
      code: ErrorCodeSchema,
      message: z.string(),
      param: z.nullable(z.string()),
      doc_url: z.url(),
      request_id: z.string().check(z.startsWith('req_')),
    }),
  }),
  { id: 'ErrorEnvelope' },
);

export function listOf<T extends z.ZodMiniType>(item: T, id: string) {
  return meta(z.strictObject({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() }), { id });
}

export const JobListSchema = listOf(JobSchema, 'JobList');

const limit = describe(
  z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
  'page size, 1 to 100',
);
export const JobListQuerySchema = z.strictObject({
  limit,
  starting_after: describe(z.optional(JobId), 'id of the last job of the previous page'),
  status: z.optional(JobStatusSchema),
  endpoint: z.optional(EndpointSlugSchema),
  batch: describe(
    z.optional(z.string().check(z.regex(new RegExp(`^bat_${ID_BODY_PATTERN}$`)))),
    'only the jobs of this batch (docs/batches.md)',
  ),
});

export const CatalogueEntrySchema = meta(
  z.strictObject({
    slug: EndpointSlugSchema,
    family: FamilySchema,
    name: z.string(),
    availability: z.enum(['available', 'planned']),
    metering: z.enum(['per_image', 'per_request', 'per_second', 'per_inspection']),
    price: describe(
      z.int().check(z.minimum(0)),
      'credits per metered unit, not dollars: `2` is 2 credits; one credit is worth 1 US cent at list price, so 2 credits are $0.02 (see `price_display`)',
    ),
    currency: describe(
      z.literal('usd'),
      'the currency credits are bought in (1 credit = 0.01 usd at list price); `price` itself is in credits',
    ),
    price_display: describe(
      z.string(),
      'the price for people: credits, their money value and the unit, e.g. "2 credits ($0.02) per image"',
    ),
    input_kind: z.enum(['image', 'images', 'audio', 'video', 'document', 'json']),
    accepts_wait: z.boolean(),
    queue_timeout_seconds: z.int().check(z.minimum(1)),
    scenarios: z.array(z.enum(ALL_SCENARIOS as [string, ...string[]])),
    encodings: describe(
      z.array(z.enum(['multipart', 'json'])),
      'request encodings the endpoint takes: `["multipart", "json"]`, or `["json"]` where inputs travel only as uploads (`input_ref` / `input_refs`) or the endpoint takes no file',
    ),
  }),
  { id: 'CatalogueEntry' },
);

export const CatalogueSchema = listOf(CatalogueEntrySchema, 'Catalogue');

export const CreateUploadSchema = meta(
  z.strictObject({
    content_type: describe(
      // a type and a subtype of at most 127 characters each (RFC 6838); the route takes only the media types some endpoint accepts
      z.string().check(z.minLength(1), z.maxLength(255)),
      `media type of the bytes you will PUT, one of ${ALL_UPLOAD_MEDIA_TYPES.join(', ')} (any case)`,
    ),
    size_bytes: describe(
      z.int().check(z.minimum(1), z.maximum(500 * 1024 * 1024)),
      'exact size of the file, at most 500 MB',
    ),
    filename: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
  }),
  { id: 'CreateUpload' },
);

export const UploadSchema = meta(
  z.strictObject({
    object: z.literal('upload'),
    upload_ref: z.string().check(z.startsWith('upl_')),
    url: describe(z.url(), 'presigned PUT address'),
    method: z.literal('PUT'),
    headers: z.object({ 'Content-Type': z.string() }),
    expires_at: describe(Timestamp, 'when the PUT URL stops working'),
  }),
  { id: 'Upload' },
);
