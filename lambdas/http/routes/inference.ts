import type * as z from 'zod/mini';
import {
  CATALOGUE,
  ENDPOINT_SLUGS,
  type EndpointDefinition,
  type EndpointSlug,
} from '../../domain/catalogue/catalogue.js';
import type { ErrorCode } from '../../domain/kernel/errors.js';
import { DEFAULT_CONFIG } from '../../domain/ports/services.js';
import { JobSchema } from '../../schemas/records.js';
import { defineRoute, JSON_BODY_BYTES, type ResponseSpec } from './define.js';

export const FAMILY_TAGS: Record<string, string> = {
  A: 'A · Understand the vehicle',
  B: 'B · Damage and condition',
  C: 'C · Parts',
  D: 'D · Money',
  E: 'E · Image production',
  inspections: 'Inspections',
};

/** Room for the multipart framing and text fields around the files. */
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

/** Multipart carries up to `maxAssets` files of 10 MB; JSON-only endpoints take a small body. */
function maxBodyBytes(endpoint: EndpointDefinition): number {
  if (!endpoint.fileField || endpoint.requiresJsonEncoding) return JSON_BODY_BYTES;
  return Math.max(endpoint.maxAssets, 1) * DEFAULT_CONFIG.maxFileBytes + MULTIPART_OVERHEAD_BYTES;
}

/** The codes a call of `endpoint` can answer from its own checks (the pipeline's are added by `errorCodesOf`). */
export function endpointErrors(endpoint: EndpointDefinition): ErrorCode[] {
  const slug = endpoint.slug;
  return [
    'scope_not_granted',
    'parameter_invalid',
    'parameter_missing',
    'parameter_unknown',
    'invalid_json',
    'unsupported_media_type',
    'test_scenario_not_supported',
    'insufficient_credits',
    'spend_limit_exceeded',
    ...(endpoint.fileField
      ? (['missing_input', 'upload_not_found', 'upload_already_consumed', 'too_many_files'] as ErrorCode[])
      : []),
    ...(endpoint.fileField && !endpoint.requiresJsonEncoding
      ? (['invalid_multipart', 'file_too_large'] as ErrorCode[])
      : []),
    ...(endpoint.availability === 'available' ? [] : (['endpoint_not_available'] as ErrorCode[])),
    ...(endpoint.acceptsWait ? [] : (['wait_not_supported'] as ErrorCode[])),
    ...(endpoint.requiresJsonEncoding ? (['json_encoding_required'] as ErrorCode[]) : []),
    ...(slug === 'render.background' || slug === 'render.plate' ? (['url_not_public'] as ErrorCode[]) : []),
    ...(slug === 'render.background' ? (['parameters_exclusive'] as ErrorCode[]) : []),
  ];
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
    id: `infer-${slug.replace('.', '-')}`,
    method: 'POST',
    path: `/v1/${slug}`,
    summary: `${endpoint.name}: create a job`,
    tag: FAMILY_TAGS[endpoint.family]!,
    auth: 'api_key',
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
    handler: 'inference#createJob',
    timeoutSeconds: endpoint.acceptsWait ? 29 : 10,
    maxBodyBytes: maxBodyBytes(endpoint),
  });
}

export type InferenceRoute = ReturnType<typeof inferenceRoute>;

/** `POST /v1/{slug}` for every endpoint of the catalogue. */
export const INFERENCE_ROUTES: readonly InferenceRoute[] = ENDPOINT_SLUGS.map(inferenceRoute);
