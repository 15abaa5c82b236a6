import type * as z from 'zod/mini';
import { rateWindowOf } from '../../../domain/access/rate-limits.js';
import {
  CATALOGUE,
  ENDPOINT_SLUGS,
  type EndpointDefinition,
  type EndpointSlug,
} from '../../../domain/catalogue/catalogue.js';
import { admit, SCENARIO_HEADER } from '../../../domain/jobs/admission.js';
import { DEADLINE_HEADER } from '../../../domain/jobs/deadline-timer.js';
import { epochSeconds } from '../../../domain/kernel/clock.js';
import { ApiError } from '../../../domain/kernel/errors.js';
import { DEFAULT_CONFIG } from '../../../domain/ports/services.js';
import { JobSchema } from '../../../schemas/records.js';
import { bearerToken } from '../../header-authentication.js';
import { idempotencyKeyOf } from '../../idempotency.js';
import { implement } from '../../implement.js';
import { parseCall } from '../../inference/call.js';
import { multipartFingerprint } from '../../multipart.js';
import { withHeaders } from '../../response.js';
import { rateLimitHeaders } from '../../retry-headers.js';
import { defineRoute, JSON_BODY_BYTES, type ResponseSpec } from '../define.js';
import { endpointErrors, FAMILY_TAGS } from './endpoint-route.js';

/** Room for the multipart framing and text fields around the files. */
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

/** Multipart carries up to `maxAssets` files of 10 MB; JSON-only endpoints take a small body. */
function maxBodyBytes(endpoint: EndpointDefinition): number {
  if (!endpoint.fileField || endpoint.requiresJsonEncoding) return JSON_BODY_BYTES;
  return Math.max(endpoint.maxAssets, 1) * DEFAULT_CONFIG.maxFileBytes + MULTIPART_OVERHEAD_BYTES;
}

type JobResponse = ResponseSpec & { schema: z.ZodMiniType };

/**
 * 200 exists only where `wait=true` is accepted; the type keeps both so one handler serves every slug.
 * The job is declared in general: the OpenAPI generator narrows it to the endpoint's own result
 * (`PlateReadJob`, …), so a Lambda does not build every endpoint's result schema when it starts.
 */
function inferenceResponses(endpoint: EndpointDefinition, job: z.ZodMiniType) {
  const responses: { 202: JobResponse; 200: JobResponse } = {
    202: {
      description: endpoint.acceptsWait
        ? 'the job, queued (or still running when the wait ceiling passed)'
        : 'the job, queued',
      schema: job,
    },
    200: { description: 'wait=true: the job, settled', schema: job },
  };
  if (!endpoint.acceptsWait) delete (responses as Partial<typeof responses>)[200];
  return responses;
}

function inferenceRoute(slug: EndpointSlug) {
  const endpoint = CATALOGUE[slug];
  return defineRoute({
    module: import.meta.url,
    id: `infer-${slug.replace('.', '-')}`,
    method: 'POST',
    path: `/v1/${slug}`,
    summary: `${endpoint.name}: create a job`,
    tag: FAMILY_TAGS[endpoint.family]!,
    auth: 'api_key',
    // its admission rate-limits the call and runs its Idempotency-Key in the admission transaction
    middleware: [],
    slug,
    responses: inferenceResponses(endpoint, JobSchema),
    errors: endpointErrors(endpoint),
    // admission transaction (consumes upload refs), multipart inputs, HEAD of uploaded objects,
    // the work message; presents the job (signs result URLs)
    access: {
      table: 'readwrite',
      enqueue: true,
      writeObjects: ['inputs'],
      readObjects: ['uploads', 'outputs'],
      listObjects: true,
    },
    timeoutSeconds: endpoint.acceptsWait ? 'integration' : 10,
    maxBodyBytes: maxBodyBytes(endpoint),
  });
}

/** `POST /v1/{slug}` for every endpoint of the catalogue. */
export const routes: readonly ReturnType<typeof inferenceRoute>[] = ENDPOINT_SLUGS.map(inferenceRoute);

/** `POST /v1/{slug}` for every slug: parse the call, admit it (domain/jobs/admission.ts), answer what the admission decided. */
export const handler = implement(routes, async ({ route, services, principal, request }) => {
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
    ? rateLimitHeaders(rateWindowOf(admission.rateLimit, epochSeconds(services.clock)))
    : {};
  if (admission.kind === 'refused') throw withHeaders(admission.error, headers);
  // the deadline the job runs under, echoed; a replay matched the same header (it is part of the fingerprint)
  if (!(call instanceof ApiError) && call.deadlineSeconds) headers[DEADLINE_HEADER] = String(call.deadlineSeconds);
  if (admission.kind === 'replayed') return { replayed: admission.response, headers };
  return { status: admission.status, body: admission.job, headers };
});
