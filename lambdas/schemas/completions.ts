import * as z from 'zod/mini';
import { PLANE_ERROR_CODES } from '../domain/jobs/job-errors.js';
import { JobId, JobStatusSchema } from './records.js';
import { describe, meta } from './zod.js';

/** `<model>@<release date>`, e.g. `plate-reader-v6@2026-07-01`; a fixture's ends in `-fixture` */
export const ModelVersion = describe(
  z
    .string()
    .check(
      z.regex(
        /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}@\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(-fixture)?$/,
        'expected <model>@<YYYY-MM-DD>, or <model>@<YYYY-MM-DD>-fixture for a fixture',
      ),
    ),
  '<model>@<release date> that produced the outcome (`-fixture` appended when a fixture made it)',
);

/** `POST /internal/v1/completions`: what the inference plane reports when a job it accepted settles. */
export const CompletionCallbackSchema = meta(
  z
    .strictObject({
      job_id: JobId,
      status: z.enum(['succeeded', 'failed']),
      model_version: ModelVersion,
      result: describe(
        // result fields are the endpoint's own, short names (docs/results.md)
        z.optional(z.record(z.string().check(z.maxLength(64)), z.unknown())),
        'required when succeeded: the endpoint result, each produced file as `{ "file_key": "<name>" }` with the bytes already stored at outputs/<org>/<job>/<name>',
      ),
      error: describe(
        z.optional(
          z.strictObject({
            // a customer's program branches on the job's code: the plane reports one the API documents
            code: z.enum(PLANE_ERROR_CODES),
            message: z.string().check(z.minLength(1), z.maxLength(1000)),
          }),
        ),
        'required when failed; the job shows it as `{ type: "processing_error", code, message }`',
      ),
      billable_units: describe(
        z.optional(z.number().check(z.minimum(0), z.maximum(1_000_000))),
        'units the model processed (images, seconds, or 1 per request); default 1 for per-request endpoints and the number of inputs for per-image ones; required for per-second ones',
      ),
    })
    .check(
      z.superRefine((body, ctx) => {
        const succeeded = body.status === 'succeeded';
        const issue = (field: string, code: 'parameter_missing' | 'parameter_invalid', message: string) =>
          ctx.addIssue({ code: 'custom', path: [field], message, params: { error_code: code } });
        if (succeeded && body.result === undefined)
          issue(
            'result',
            'parameter_missing',
            'Missing required parameter result: a succeeded callback carries the result.',
          );
        if (succeeded && body.error !== undefined)
          issue('error', 'parameter_invalid', 'error is only allowed when status is failed.');
        if (!succeeded && body.error === undefined)
          issue(
            'error',
            'parameter_missing',
            'Missing required parameter error: a failed callback carries { code, message }.',
          );
        if (!succeeded && body.result !== undefined)
          issue('result', 'parameter_invalid', 'result is only allowed when status is succeeded.');
        if (!succeeded && body.billable_units !== undefined)
          issue('billable_units', 'parameter_invalid', 'billable_units is only allowed when status is succeeded.');
      }),
    ),
  { id: 'CompletionCallback' },
);
export type CompletionCallback = z.output<typeof CompletionCallbackSchema>;

export const CompletionAckSchema = meta(
  z.strictObject({
    received: z.literal(true),
    job_id: JobId,
    status: describe(
      JobStatusSchema,
      'the job status after the callback: the settled status, also when the callback was a repeat and changed nothing',
    ),
  }),
  { id: 'CompletionAck' },
);
