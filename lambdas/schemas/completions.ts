import * as z from 'zod';
import { JobId, JobStatusSchema } from './records.js';

/** `<model>@<release date>`, e.g. `plate-reader-v6@2026-07-01` */
export const ModelVersion = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}@\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'expected <model>@<YYYY-MM-DD>')
  .describe('<model>@<release date> that produced the outcome');

/** `POST /internal/v1/completions`: what the inference plane reports when a job it accepted settles. */
export const CompletionCallbackSchema = z
  .object({
    job_id: JobId,
    status: z.enum(['succeeded', 'failed']),
    model_version: ModelVersion,
    result: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('required when succeeded: the endpoint result, each produced file as `{ "file_key": "<name>" }` with the bytes already stored at outputs/<org>/<job>/<name>'),
    error: z
      .object({
        code: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'expected a snake_case code'),
        message: z.string().min(1).max(1000),
      })
      .strict()
      .optional()
      .describe('required when failed; the job shows it as `{ type: "processing_error", code, message }`'),
    billable_units: z
      .number()
      .min(0)
      .max(1_000_000)
      .optional()
      .describe(
        'units the model processed (images, seconds, or 1 per request); default 1 for per-request endpoints and the number of inputs for per-image ones; required for per-second ones',
      ),
  })
  .strict()
  .superRefine((body, ctx) => {
    const succeeded = body.status === 'succeeded';
    const issue = (field: string, code: 'parameter_missing' | 'parameter_invalid', message: string) =>
      ctx.addIssue({ code: 'custom', path: [field], message, params: { error_code: code } });
    if (succeeded && body.result === undefined) issue('result', 'parameter_missing', 'Missing required parameter result: a succeeded callback carries the result.');
    if (succeeded && body.error !== undefined) issue('error', 'parameter_invalid', 'error is only allowed when status is failed.');
    if (!succeeded && body.error === undefined) issue('error', 'parameter_missing', 'Missing required parameter error: a failed callback carries { code, message }.');
    if (!succeeded && body.result !== undefined) issue('result', 'parameter_invalid', 'result is only allowed when status is succeeded.');
    if (!succeeded && body.billable_units !== undefined) issue('billable_units', 'parameter_invalid', 'billable_units is only allowed when status is succeeded.');
  })
  .meta({ id: 'CompletionCallback' });
export type CompletionCallback = z.output<typeof CompletionCallbackSchema>;

export const CompletionAckSchema = z
  .object({
    received: z.literal(true),
    job_id: JobId,
    status: JobStatusSchema.describe('the job status after the callback: the settled status, also when the callback was a repeat and changed nothing'),
  })
  .strict()
  .meta({ id: 'CompletionAck' });
