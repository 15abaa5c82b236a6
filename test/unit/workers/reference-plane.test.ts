import type { LambdaFunctionURLEvent } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { epochSeconds, systemClock } from '../../../lambdas/domain/kernel/clock.js';
import { signatureHeader } from '../../../lambdas/domain/kernel/signatures.js';

// The Lambda reference plane's `POST …/cancel` (docs/internals/inference-plane.md, "Cancellation"): a signed
// InferenceCancellation is acknowledged, anything else refused, and nothing is queued.

const SECRET = 'icsec_reference_plane_cancel';
vi.mock('../../../lambdas/adapters/runtime-secrets.js', () => ({ secretString: async () => SECRET }));
process.env.INFERENCE_CALLBACK_SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:000000000000:secret:callback';
process.env.PLANE_QUEUE_URL = 'http://127.0.0.1:1/queue/never-used';
// the acknowledgement's INFO line is for the plane's logs on AWS; `npm run test:unit` prints one line per file
process.env.LOG_LEVEL = 'WARN';
const { handler } = await import('../../../lambdas/workers/reference-plane.js');

function urlEvent(
  rawPath: string,
  body: string,
  signature: string | null = signatureHeader(body, SECRET, epochSeconds(systemClock)),
): LambdaFunctionURLEvent {
  return {
    rawPath,
    body,
    isBase64Encoded: false,
    headers: signature ? { 'x-inference-signature': signature } : {},
    requestContext: { http: { method: 'POST' } },
  } as unknown as LambdaFunctionURLEvent;
}

const JOB = 'job_1pAGKB6qxzhn5SCTcW14Bt';

/** the function URL's structured answer */
interface Answer {
  statusCode: number;
  body: string;
}

describe('the Lambda reference plane: cancellations', () => {
  it('acknowledges a signed cancellation of a job', async () => {
    const answer = (await handler(
      urlEvent('/cancel', JSON.stringify({ job_id: JOB, reason: 'deadline_exceeded' })),
    )) as Answer;
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(String(answer.body))).toEqual({ canceled: true, job_id: JOB });
  });

  it('refuses an unsigned one (401) and one that is not an InferenceCancellation (400)', async () => {
    const unsigned = (await handler(
      urlEvent('/cancel', JSON.stringify({ job_id: JOB, reason: 'deadline_exceeded' }), null),
    )) as Answer;
    expect(unsigned.statusCode).toBe(401);
    const malformed = (await handler(urlEvent('/cancel', JSON.stringify({ job_id: JOB, reason: 'bored' })))) as Answer;
    expect(malformed.statusCode).toBe(400);
    expect(JSON.parse(String(malformed.body)).error.code).toBe('invalid_cancellation');
  });
});
