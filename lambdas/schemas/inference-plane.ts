import * as z from 'zod/mini';
import { ID_BODY_PATTERN } from '../domain/kernel/ids.js';
import { ModelVersion } from './completions.js';
import { EndpointSlugSchema, JobId } from './records.js';
import { describe, meta } from './zod.js';

/** One input of a submitted job: where its bytes are and what they are. */
export const SubmittedInputSchema = meta(
  z.strictObject({
    index: describe(z.int().check(z.minimum(0)), 'position of the input in the request (0-based)'),
    object_key: describe(
      z.string().check(z.minLength(1)),
      'key of the bytes in `bucket` (under `inputs/` or `uploads/`)',
    ),
    content_type: z.string().check(z.minLength(1)),
    size_bytes: z.int().check(z.minimum(0)),
    sha256: describe(
      z.string().check(z.regex(/^[0-9a-f]{64}$/)),
      'hex SHA-256 of the bytes, taken by the service before submitting',
    ),
    filename: z.nullable(z.string()),
  }),
  { id: 'SubmittedInput' },
);

/**
 * What the service POSTs to the inference plane for each live job (`INFERENCE_PLANE_URL`), signed
 * with `X-Inference-Signature` over the raw body. Any 2xx answer accepts the job; the plane then
 * reports its outcome to `callback_url` (a CompletionCallback).
 */
export const InferenceSubmissionSchema = meta(
  z.strictObject({
    job_id: JobId,
    endpoint: EndpointSlugSchema,
    model_version: describe(
      ModelVersion,
      'the model build the service expects to run; report the one that ran in the callback',
    ),
    params: describe(
      z.record(z.string(), z.unknown()),
      "the endpoint's parameters as the customer sent them, validated",
    ),
    inputs: z.array(SubmittedInputSchema),
    bucket: describe(
      z.string().check(z.minLength(1)),
      'the S3 bucket holding the inputs; produced files go to the same bucket',
    ),
    output_prefix: describe(
      z.string().check(z.regex(new RegExp(`^outputs/org_${ID_BODY_PATTERN}/job_${ID_BODY_PATTERN}/$`))),
      'write each produced file to `<output_prefix><file_key>` and reference it in the result as `{ "file_key": "<file_key>" }`',
    ),
    callback_url: describe(z.url(), 'the service’s `POST /internal/v1/completions`: where the outcome is reported'),
  }),
  { id: 'InferenceSubmission' },
);
export type InferenceSubmission = z.output<typeof InferenceSubmissionSchema>;

/**
 * What the service POSTs to `<plane URL>/cancel` when an accepted job must stop (its Svc-Deadline
 * passed; the job is already expired and charged nothing), signed like a submission. Best effort:
 * it is sent once, and a callback for the job afterwards is answered 200 and changes nothing.
 */
export const InferenceCancellationSchema = meta(
  z.strictObject({
    job_id: JobId,
    reason: describe(z.enum(['deadline_exceeded']), 'why the service no longer wants the result'),
  }),
  { id: 'InferenceCancellation' },
);
export type InferenceCancellation = z.output<typeof InferenceCancellationSchema>;

/** What the reference plane answers to an accepted submission (any 2xx body is accepted by the service). */
export const SubmissionAcceptedSchema = meta(
  z.strictObject({
    accepted: z.literal(true),
    job_id: JobId,
  }),
  { id: 'SubmissionAccepted' },
);

/** Callback answers a plane tries again, with backoff: the hand-over not recorded yet (409), throttling, a server fault. */
export const RETRIED_CALLBACK_STATUSES: readonly number[] = [409, 429, 500, 502, 503, 504];
