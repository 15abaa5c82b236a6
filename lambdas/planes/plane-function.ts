import type { LambdaFunctionURLEvent, LambdaFunctionURLResult, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { lazy, s3Sdk, sqsSdk } from '../adapters/aws-sdk.js';
import { createLog } from '../adapters/logger.js';
import { secretString } from '../adapters/runtime-secrets.js';
import { S3ObjectStore } from '../adapters/s3-object-store.js';
import { SqsQueue, sdkQueueSender } from '../adapters/sqs-queue.js';
import { epochSeconds, systemClock } from '../domain/kernel/clock.js';
import { INFERENCE_SIGNATURE_HEADER, verifySignatureHeader } from '../domain/kernel/signatures.js';
import {
  InferenceCancellationSchema,
  type InferenceSubmission,
  InferenceSubmissionSchema,
} from '../schemas/inference-plane.js';
import { processSqsBatch } from '../workers/sqs-batch.js';
import { deliverCompletion } from './callback-delivery.js';
import type { PlaneModel } from './plane-model.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`missing environment variable ${name}`);
  return value;
}

function answer(statusCode: number, body: unknown): LambdaFunctionURLResult {
  return { statusCode, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

const refusal = (statusCode: number, code: string, message: string, details?: unknown) =>
  answer(statusCode, { error: { code, message, ...(details ? { details } : {}) } });

/**
 * A bundled inference plane as a Lambda (lib/reference-plane.ts: the reference plane with
 * `-c referencePlane=true`, the fixture plane with `-c fixturePlane=true`): its function URL takes
 * submissions exactly as any plane does (docs/internals/inference-plane.md), checks their signature and shape,
 * queues them and answers 202 at once; its queue's event source then works each one with the
 * plane's model (files under `output_prefix`) and reports it to the submission's `callback_url`,
 * signed. Working off the queue is what lets it answer before the service has recorded the
 * hand-over, which a callback sent from the submit call itself could not.
 */
export function planeFunction(name: string, model: PlaneModel) {
  const clock = systemClock;
  const log = createLog(name);
  const s3 = lazy(async () => new (s3Sdk().S3Client)({ requestChecksumCalculation: 'WHEN_REQUIRED' }));
  const sqs = lazy(async () => new (sqsSdk().SQSClient)({}));
  const buckets = new Map<string, S3ObjectStore>();
  const secret = () => secretString(required('INFERENCE_CALLBACK_SECRET_ARN'));

  /**
   * A submission: signed by the service, an InferenceSubmission (docs/internals/inference-plane.md); queued for
   * the worker half. `POST …/cancel` (a job past its deadline) is acknowledged: a queued
   * submission is worked once, briefly, and its late callback changes nothing, so there is nothing to stop.
   */
  async function accept(event: LambdaFunctionURLEvent): Promise<LambdaFunctionURLResult> {
    if (event.requestContext.http.method !== 'POST')
      return refusal(405, 'method_not_allowed', 'Submit jobs with POST.');
    const raw = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
    const failure = verifySignatureHeader(
      event.headers[INFERENCE_SIGNATURE_HEADER.toLowerCase()],
      raw,
      await secret(),
      epochSeconds(clock),
    );
    if (failure)
      return refusal(
        401,
        'invalid_signature',
        `The ${INFERENCE_SIGNATURE_HEADER} header is ${failure.replace('_', ' ')}.`,
      );
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return refusal(400, 'invalid_submission', 'The body is not JSON.');
    }
    if (event.rawPath.endsWith('/cancel')) {
      const cancellation = InferenceCancellationSchema.safeParse(body);
      if (!cancellation.success)
        return refusal(
          400,
          'invalid_cancellation',
          'The body is not an InferenceCancellation.',
          cancellation.error.issues,
        );
      log.info('cancellation acknowledged', { job_id: cancellation.data.job_id, reason: cancellation.data.reason });
      return answer(200, { canceled: true, job_id: cancellation.data.job_id });
    }
    const parsed = InferenceSubmissionSchema.safeParse(body);
    if (!parsed.success)
      return refusal(400, 'invalid_submission', 'The body is not an InferenceSubmission.', parsed.error.issues);
    await new SqsQueue<InferenceSubmission>(sdkQueueSender(sqs), required('PLANE_QUEUE_URL')).send(parsed.data);
    log.info('submission accepted', { job_id: parsed.data.job_id, endpoint: parsed.data.endpoint });
    return answer(202, { accepted: true, job_id: parsed.data.job_id });
  }

  /** Works one queued submission to its signed callback; throws (the message comes back) when the callback is not recorded. */
  async function work(body: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      message = null;
    }
    const submission = InferenceSubmissionSchema.safeParse(message);
    if (!submission.success) {
      log.warn('dropping a malformed queued submission', { body: body.slice(0, 200) });
      return;
    }
    const { bucket } = submission.data;
    const objects = buckets.get(bucket) ?? new S3ObjectStore(s3, bucket, clock);
    buckets.set(bucket, objects);
    const completion = await model(submission.data, objects, log);
    await deliverCompletion(submission.data.callback_url, completion, { secret: await secret(), clock });
    log.info('completion reported', { job_id: completion.job_id, status: completion.status });
  }

  return async function handler(
    event: LambdaFunctionURLEvent | SQSEvent,
  ): Promise<LambdaFunctionURLResult | SQSBatchResponse> {
    if (!('Records' in event)) return accept(event);
    return processSqsBatch(event, log, 'submission not reported', (record) => work(record.body));
  };
}
