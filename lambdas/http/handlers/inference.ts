import { rateLimitHeaders } from '../../domain/access/rate-limits.js';
import { CATALOGUE } from '../../domain/catalogue/catalogue.js';
import { admit, SCENARIO_HEADER } from '../../domain/jobs/admission.js';
import { DEADLINE_HEADER } from '../../domain/jobs/deadline-timer.js';
import { epochSeconds } from '../../domain/kernel/clock.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { bearerToken } from '../header-authentication.js';
import { idempotencyKeyOf } from '../idempotency.js';
import { implement, withHeaders } from '../implement.js';
import { parseCall } from '../inference/call.js';
import { multipartFingerprint } from '../multipart.js';
import * as inference from '../routes/inference.js';

// The inference routes: one handler admits a job for every endpoint of the catalogue.

/** `POST /v1/{slug}` for every slug: parse the call, admit it (domain/jobs/admission.ts), answer what the admission decided. */
export const createJob = implement(inference.INFERENCE_ROUTES, async ({ route, services, principal, request }) => {
  const endpoint = CATALOGUE[route.slug];
  const call = await parseCall(request, endpoint, services.config.maxFileBytes);
  const admission = await admit(services, {
    requestId: request.requestId,
    endpoint,
    key: { principal, secret: bearerToken(request.headers.authorization) },
    scenario: request.headers[SCENARIO_HEADER.toLowerCase()],
    idempotency: await idempotencyKeyOf(request, { multipartFingerprint, scenarioIgnored: principal.livemode }),
    request: call,
  });
  const headers: Record<string, string> = admission.rateLimit
    ? rateLimitHeaders(admission.rateLimit, epochSeconds(services.clock))
    : {};
  if (admission.kind === 'refused') throw withHeaders(admission.error, headers);
  // the deadline the job runs under, echoed; a replay matched the same header (it is part of the fingerprint)
  if (!(call instanceof ApiError) && call.deadlineSeconds) headers[DEADLINE_HEADER] = String(call.deadlineSeconds);
  if (admission.kind === 'replayed') return { replayed: admission.response, headers };
  return { status: admission.status, body: admission.job, headers };
});
