import { rateLimitHeaders } from '../../domain/access/rate-limits.js';
import { CATALOGUE } from '../../domain/catalogue/catalogue.js';
import { admit, SCENARIO_HEADER } from '../../domain/jobs/admission.js';
import { epochSeconds } from '../../domain/kernel/clock.js';
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
  const admission = await admit(services, {
    requestId: request.requestId,
    endpoint,
    key: { principal, secret: bearerToken(request.headers.authorization) },
    scenario: request.headers[SCENARIO_HEADER.toLowerCase()],
    idempotency: await idempotencyKeyOf(request, { multipartFingerprint, scenarioIgnored: principal.livemode }),
    request: await parseCall(request, endpoint, services.config.maxFileBytes),
  });
  const headers = admission.rateLimit ? rateLimitHeaders(admission.rateLimit, epochSeconds(services.clock)) : {};
  if (admission.kind === 'refused') throw withHeaders(admission.error, headers);
  if (admission.kind === 'replayed') return { replayed: admission.response, headers };
  return { status: admission.status, body: admission.job, headers };
});
