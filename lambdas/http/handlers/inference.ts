import { rateLimitHeaders } from '../../domain/access/rate-limits.js';
import { CATALOGUE, type EndpointDefinition } from '../../domain/catalogue/catalogue.js';
import { admit, type InspectionRequest, type JobRequest, SCENARIO_HEADER } from '../../domain/jobs/admission.js';
import { epochSeconds } from '../../domain/kernel/clock.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { loadInferenceParamsSchema } from '../../schemas/inference-params.js';
import { bearerToken } from '../header-authentication.js';
import { idempotencyKeyOf } from '../idempotency.js';
import { implement, withHeaders } from '../implement.js';
import { parseInferenceBody, requireInputs } from '../inference/body.js';
import { parseInspection } from '../inference/inspection.js';
import { parseWait } from '../inference/query.js';
import { multipartFingerprint } from '../multipart.js';
import type { HttpRequest } from '../request.js';
import * as inference from '../routes/inference.js';
import { validateParams } from '../validation.js';

// The inference routes: one handler admits a job for every endpoint of the catalogue.

/**
 * The call's query and body as the admission takes them. A refusal of either is handed over as it
 * is: the admission answers it in its turn, after the checks of the caller (key, scopes, scenario,
 * rate limit, Idempotency-Key), so a revoked key is still a `401` and a bad body is stored for replay.
 */
async function parseCall(request: HttpRequest, endpoint: EndpointDefinition, maxFileBytes: number): Promise<JobRequest | InspectionRequest | ApiError> {
  try {
    const wait = parseWait(request, endpoint);
    // the eight-stage bundle has its own body (input_refs + stages.exclude)
    if (endpoint.slug === 'inspections') return await parseInspection(request, endpoint, maxFileBytes);
    const body = await parseInferenceBody(request, endpoint, maxFileBytes);
    requireInputs(endpoint, body);
    const params = validateParams(await loadInferenceParamsSchema(endpoint.slug), body.params);
    return { kind: 'job', wait, params, files: body.files, inputRefs: body.inputRefs, inputRefsParam: body.inputRefsParam };
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

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
