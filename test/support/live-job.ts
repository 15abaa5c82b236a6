import type { JobRecord } from '../../lambdas/domain/jobs/job.js';
import { epochSeconds } from '../../lambdas/domain/kernel/clock.js';
import { signatureHeader } from '../../lambdas/domain/kernel/signatures.js';
import { type ApiResponse, call } from './http.js';
import type { TestService } from './service.js';

/** A queued live `plate.read` job with one hashed JPEG input, as the worker hands it to an inference plane. */
export function liveJobRecord(id: string, overrides: Partial<JobRecord> = {}): JobRecord {
  const orgId = 'org_VvxDwigd5tujH5QpccgQrg';
  return {
    id,
    org_id: orgId,
    api_key_id: 'key_1111111111111111',
    livemode: true,
    endpoint: 'plate.read',
    status: 'queued',
    created: 1_760_000_000,
    started_at: null,
    completed_at: null,
    model_version: null,
    credits: { reserved: 2, charged: null },
    result: null,
    error: null,
    test_scenario: null,
    params: {},
    inputs: [
      {
        index: 0,
        filename: 'car.jpg',
        content_type: 'image/jpeg',
        size_bytes: 2048,
        sha256: 'ab'.repeat(32),
        object_key: `inputs/${orgId}/${id}/0`,
      },
    ],
    files: {},
    billable_units: null,
    queue_deadline: 1_760_000_900,
    redrive_at: 1_760_000_060,
    simulated_delay_seconds: 0,
    ...overrides,
  };
}

/** Plays the inference plane: posts `body` to the completion callback, signed now with the service's secret. */
export function postSignedCompletion(svc: TestService, body: string): Promise<ApiResponse> {
  return call(svc.baseUrl, 'POST', '/internal/v1/completions', {
    rawBody: body,
    headers: {
      'Content-Type': 'application/json',
      'X-Inference-Signature': signatureHeader(
        body,
        svc.services.config.inferenceCallbackSecret!,
        epochSeconds(svc.clock),
      ),
    },
  });
}
