import type * as z from 'zod';
import { CATALOGUE, ENDPOINT_SLUGS, type EndpointSlug } from '../domain/catalogue/catalogue.js';
import type { ErrorCode } from '../domain/kernel/errors.js';
import { MANAGEMENT_ROUTES, type ManagementHandlerName } from './routes-management.js';
import { CatalogueSchema, CreateUploadSchema, JobListQuerySchema, JobListSchema, JobSchema, UploadSchema } from '../schemas/records.js';
import { CompletionAckSchema, CompletionCallbackSchema } from '../schemas/completions.js';

export type AuthKind = 'api_key' | 'jwt' | 'none' | 'signature';

/** Module names under lambdas/http/handlers; each exports `handler` for Lambda. */
export type HandlerName = ManagementHandlerName | 'create-job' | 'get-job' | 'list-jobs' | 'cancel-job' | 'list-endpoints' | 'get-openapi' | 'get-error-doc' | 'create-upload' | 'receive-completion';

export interface RouteDefinition {
  /** stable, unique; names the Lambda function */
  id: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** API Gateway path, `{name}` for path parameters */
  path: string;
  auth: AuthKind;
  /** `signature` routes: the header carrying the HMAC (default X-Inference-Signature) */
  signatureHeader?: 'X-Inference-Signature' | 'Stripe-Signature';
  /** management routes: the lowest role allowed */
  minimumRole?: 'owner' | 'admin' | 'member';
  handler: HandlerName;
  /** inference routes: the endpoint this route admits */
  slug?: EndpointSlug;
  summary: string;
  tag: string;
  query?: z.ZodType;
  /** JSON request body (inference routes describe theirs from the endpoint's params) */
  body?: z.ZodType;
  /** success responses by status */
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
  /** error codes this route can answer, for the OpenAPI document */
  errors: ErrorCode[];
  /** handler timeout; `wait=true` routes need the longest */
  timeoutSeconds: number;
}

const FAMILY_TAGS: Record<string, string> = {
  A: 'A · Understand the vehicle',
  B: 'B · Damage and condition',
  C: 'C · Parts',
  D: 'D · Money',
  E: 'E · Image production',
  inspections: 'Inspections',
};

const AUTH_ERRORS: ErrorCode[] = ['invalid_api_key', 'internal_error'];

function inferenceRoute(slug: EndpointSlug): RouteDefinition {
  const endpoint = CATALOGUE[slug];
  return {
    id: `infer-${slug.replace('.', '-')}`,
    method: 'POST',
    path: `/v1/${slug}`,
    auth: 'api_key',
    handler: 'create-job',
    slug,
    summary: `${endpoint.name}: create a job`,
    tag: FAMILY_TAGS[endpoint.family]!,
    responses: endpoint.acceptsWait
      ? { 202: { description: 'the job, queued (or still running when the wait ceiling passed)', schema: JobSchema }, 200: { description: 'wait=true: the job, settled', schema: JobSchema } }
      : { 202: { description: 'the job, queued', schema: JobSchema } },
    errors: [
      ...AUTH_ERRORS,
      'scope_not_granted',
      'missing_input',
      'parameter_invalid',
      'parameter_missing',
      'parameter_unknown',
      'invalid_json',
      'invalid_multipart',
      'unsupported_media_type',
      'file_too_large',
      'too_many_files',
      'test_scenario_not_supported',
      'upload_not_found',
      ...(endpoint.availability === 'available' ? [] : (['endpoint_not_available'] as ErrorCode[])),
      'upload_already_consumed',
      'insufficient_credits',
      ...(endpoint.acceptsWait ? [] : (['wait_not_supported'] as ErrorCode[])),
      ...(endpoint.requiresJsonEncoding ? (['json_encoding_required'] as ErrorCode[]) : []),
      ...(slug === 'render.background' || slug === 'render.plate' ? (['url_not_public'] as ErrorCode[]) : []),
      ...(slug === 'render.background' ? (['parameters_exclusive'] as ErrorCode[]) : []),
    ],
    timeoutSeconds: endpoint.acceptsWait ? 29 : 10,
  };
}

export const ROUTES: readonly RouteDefinition[] = [
  ...ENDPOINT_SLUGS.map(inferenceRoute),
  {
    id: 'get-job',
    method: 'GET',
    path: '/v1/jobs/{id}',
    auth: 'api_key',
    handler: 'get-job',
    summary: 'Retrieve a job',
    tag: 'Jobs',
    responses: { 200: { description: 'the job', schema: JobSchema } },
    errors: [...AUTH_ERRORS, 'job_not_found'],
    timeoutSeconds: 10,
  },
  {
    id: 'list-jobs',
    method: 'GET',
    path: '/v1/jobs',
    auth: 'api_key',
    handler: 'list-jobs',
    summary: "List the key's jobs, newest first",
    tag: 'Jobs',
    query: JobListQuerySchema,
    responses: { 200: { description: 'a page of jobs', schema: JobListSchema } },
    errors: [...AUTH_ERRORS, 'parameter_invalid', 'parameter_unknown'],
    timeoutSeconds: 10,
  },
  {
    id: 'cancel-job',
    method: 'POST',
    path: '/v1/jobs/{id}/cancel',
    auth: 'api_key',
    handler: 'cancel-job',
    summary: 'Cancel a queued job',
    tag: 'Jobs',
    responses: { 200: { description: 'the canceled job', schema: JobSchema } },
    errors: [...AUTH_ERRORS, 'job_not_found', 'job_not_cancelable'],
    timeoutSeconds: 10,
  },
  {
    id: 'list-endpoints',
    method: 'GET',
    path: '/v1/endpoints',
    auth: 'api_key',
    handler: 'list-endpoints',
    summary: 'The endpoint catalogue: availability, metering, prices, wait support',
    tag: 'Jobs',
    responses: { 200: { description: 'every planned or available endpoint', schema: CatalogueSchema } },
    errors: AUTH_ERRORS,
    timeoutSeconds: 10,
  },
  {
    id: 'create-upload',
    method: 'POST',
    path: '/v1/uploads',
    auth: 'api_key',
    handler: 'create-upload',
    summary: 'Create a presigned upload; pass its upload_ref as input_ref / input_refs',
    tag: 'Uploads',
    body: CreateUploadSchema,
    responses: { 201: { description: 'the upload: PUT the bytes to url with the given headers', schema: UploadSchema } },
    errors: [...AUTH_ERRORS, 'invalid_json', 'parameter_invalid', 'parameter_missing', 'parameter_unknown', 'unsupported_media_type'],
    timeoutSeconds: 10,
  },
  {
    id: 'get-openapi',
    method: 'GET',
    path: '/v1/openapi.json',
    auth: 'none',
    handler: 'get-openapi',
    summary: 'This OpenAPI 3.1 document',
    tag: 'Internal',
    responses: { 200: { description: 'the OpenAPI document', contentType: 'application/json' } },
    errors: ['internal_error'],
    timeoutSeconds: 10,
  },
  {
    id: 'get-error-doc',
    method: 'GET',
    path: '/docs/errors/{code}',
    auth: 'none',
    handler: 'get-error-doc',
    summary: 'Documentation page of an error code',
    tag: 'Internal',
    responses: { 200: { description: 'an HTML page', contentType: 'text/html' } },
    errors: ['resource_not_found'],
    timeoutSeconds: 10,
  },
  {
    id: 'receive-completion',
    method: 'POST',
    path: '/internal/v1/completions',
    auth: 'signature',
    signatureHeader: 'X-Inference-Signature',
    handler: 'receive-completion',
    summary: 'The inference plane reports a live job it accepted (X-Inference-Signature); settles it exactly once',
    tag: 'Internal',
    body: CompletionCallbackSchema,
    responses: { 200: { description: 'acknowledged: the job settled now, or had already settled (a repeat changes nothing)', schema: CompletionAckSchema } },
    errors: ['invalid_signature', 'invalid_json', 'unsupported_media_type', 'parameter_invalid', 'parameter_missing', 'parameter_unknown', 'job_not_found', 'job_not_processing', 'service_unavailable', 'internal_error'],
    timeoutSeconds: 10,
  },
  ...MANAGEMENT_ROUTES,
];
