import * as z from 'zod/mini';
import { CATALOGUE, type EndpointSlug } from '../lambdas/domain/catalogue/catalogue.js';
import { SCENARIO_HEADER } from '../lambdas/domain/jobs/admission.js';
import { DEADLINE_HEADER, MAX_DEADLINE_SECONDS, MIN_DEADLINE_SECONDS } from '../lambdas/domain/jobs/deadline-timer.js';
import { UPLOAD_REF_SHAPE } from '../lambdas/domain/jobs/uploads.js';
import { ERROR_CODES, type ErrorCode } from '../lambdas/domain/kernel/errors.js';
import { DEFAULT_CONFIG } from '../lambdas/domain/ports/services.js';
import type { ResponseSpec, RouteDefinition } from '../lambdas/http/routes/define.js';
import { errorCodesOf, takesIdempotencyKey } from '../lambdas/http/routes/error-codes.js';
import { DOCUMENTED_ROUTES } from '../lambdas/http/routes/index.js';
import { inspectionParamsSchema } from '../lambdas/schemas/inference-params.js';
import { paramSchemas } from '../lambdas/schemas/params/index.js';
import { DescribedInputsSchema } from '../lambdas/schemas/quotes.js';
import { ErrorEnvelopeSchema, JobSchema } from '../lambdas/schemas/records.js';
import { resultSchemas } from '../lambdas/schemas/results/index.js';
import { meta } from '../lambdas/schemas/zod.js';

type JsonSchema = Record<string, unknown>;

/** Converts zod to JSON Schema 2020-12 (OpenAPI 3.1's dialect), hoisting named schemas into components. */
export class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodMiniType, io: 'input' | 'output' = 'output'): JsonSchema {
    const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    const { $schema: _ignored, $defs, ...rest } = converted;
    for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>))
      this.components[name] = this.rewriteRefs(definition) as JsonSchema;
    return this.rewriteRefs(rest) as JsonSchema;
  }

  private rewriteRefs(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.rewriteRefs(item));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === '$ref' && typeof inner === 'string'
          ? inner.replace('#/$defs/', '#/components/schemas/')
          : this.rewriteRefs(inner),
      ]),
    );
  }
}

const SECURITY: Record<string, Array<Record<string, string[]>>> = {
  api_key: [{ apiKey: [] }],
  jwt: [{ dashboardJwt: [] }],
  signature: [{ inferenceSignature: [] }],
  none: [],
};

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * The headers a response of this status really carries (verified against implement.ts, idempotency.ts
 * and rate-limits.ts). API-key routes add the rate-limit headers once the key is known, so never on a
 * 401, and not on a 5xx (an unexpected fault answers the bare envelope); a 429 carries `Retry-After`,
 * as does the 409 `idempotency_key_in_use`; a stored 2xx or 4xx replayed under its Idempotency-Key
 * carries `Idempotent-Replayed`. None is `required`: see each header's description for when it is absent.
 */
function responseHeaders(route: RouteDefinition, status: number): Record<string, unknown> {
  const headers: Record<string, unknown> = { 'Request-Id': header('RequestId') };
  if (route.auth === 'api_key' && status !== 401 && status < 500) {
    headers['RateLimit-Limit'] = header('RateLimitLimit');
    headers['RateLimit-Remaining'] = header('RateLimitRemaining');
    headers['RateLimit-Reset'] = header('RateLimitReset');
    headers['RateLimit-Policy'] = header('RateLimitPolicy');
    headers.RateLimit = header('RateLimit');
  }
  const idempotent = takesIdempotencyKey(route);
  if (status === 429 || (idempotent && status === 409)) headers['Retry-After'] = header('RetryAfter');
  if (idempotent && status !== 401 && status !== 429 && status < 500)
    headers['Idempotent-Replayed'] = header('IdempotentReplayed');
  if (route.slug && status < 300) headers[DEADLINE_HEADER] = header('SvcDeadline');
  return headers;
}

/**
 * The error answers of the document, shared: one component per status and set of headers (an
 * error of a key-authenticated route carries the rate-limit headers, …), which each operation
 * references with its own description, the codes it answers with that status. Repeated inline, they
 * were a third of the document (docs/testing.md: the document stays under 300 KB).
 */
class SharedErrorResponses {
  readonly components: Record<string, unknown> = {};

  reference(route: RouteDefinition, status: number, codes: readonly ErrorCode[]): Record<string, unknown> {
    const headers = responseHeaders(route, status);
    const traits = [
      headers['RateLimit-Limit'] ? 'Limited' : '',
      headers['Retry-After'] ? 'Retry' : '',
      headers['Idempotent-Replayed'] ? 'Replayable' : '',
    ].join('');
    const name = `Error${status}${traits}`;
    this.components[name] ??= {
      description: `an error envelope (${status})`,
      headers,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
    return { $ref: `#/components/responses/${name}`, description: `error codes: ${codes.join(', ')}` };
  }
}

function errorResponses(route: RouteDefinition, shared: SharedErrorResponses): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [String(status), shared.reference(route, status, codes)]),
  );
}

/** An inference call's body in either encoding; a quote's (`quote`) is its JSON form, where `inputs` may describe the files. */
function inferenceRequestBody(slug: EndpointSlug, collector: SchemaCollector, quote = false): Record<string, unknown> {
  const endpoint = CATALOGUE[slug];
  const params = collector.convert(
    endpoint.slug === 'inspections' ? inspectionParamsSchema : paramSchemas[endpoint.slug],
    'input',
  );
  const properties = (params.properties ?? {}) as Record<string, unknown>;
  const required = (params.required ?? []) as string[];
  const content: Record<string, unknown> = {};
  const multiAsset = endpoint.maxAssets > 1;
  const refShape = { type: 'string', pattern: UPLOAD_REF_SHAPE.source };
  const inputRef = { ...refShape, description: 'upload_ref from POST /v1/uploads' };
  const jsonInput: Record<string, unknown> = !endpoint.fileField
    ? {}
    : multiAsset
      ? {
          input_refs: { type: 'array', items: refShape, minItems: endpoint.minAssets, maxItems: endpoint.maxAssets },
          // one asset may also come as a single reference (docs/uploads.md)
          ...(endpoint.minAssets <= 1
            ? { input_ref: { ...inputRef, description: 'one upload_ref, instead of input_refs' } }
            : {}),
        }
      : { input_ref: inputRef };
  if (quote && endpoint.fileField) jsonInput.inputs = collector.convert(DescribedInputsSchema, 'input');
  // the input itself is required: one of the reference fields the endpoint takes
  const inputChoice = Object.keys(jsonInput);
  const jsonSchema: Record<string, unknown> = {
    type: 'object',
    properties: { ...jsonInput, ...properties },
    required: inputChoice.length === 1 ? [...inputChoice, ...required] : required,
    ...(inputChoice.length > 1 ? { oneOf: inputChoice.map((name) => ({ required: [name] })) } : {}),
    additionalProperties: false,
  };
  content['application/json'] = { schema: jsonSchema };
  if (endpoint.fileField && !endpoint.requiresJsonEncoding && !quote) {
    const maxFileBytes = DEFAULT_CONFIG.maxFileBytes;
    const file = {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      maxLength: maxFileBytes,
      description: `at most ${maxFileBytes / 1024 / 1024} MB`,
    };
    const field = multiAsset
      ? {
          [endpoint.fileField]: {
            type: 'array',
            items: file,
            minItems: endpoint.minAssets,
            maxItems: endpoint.maxAssets,
          },
        }
      : { [endpoint.fileField]: file };
    content['multipart/form-data'] = {
      schema: { type: 'object', properties: { ...field, ...properties }, required: [endpoint.fileField, ...required] },
    };
  }
  return { required: !!endpoint.fileField || required.length > 0, content };
}

function parameters(route: RouteDefinition, collector: SchemaCollector): unknown[] {
  const pathSchemas = route.params
    ? ((collector.convert(route.params, 'input').properties ?? {}) as Record<string, unknown>)
    : {};
  const list: unknown[] = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: pathSchemas[match[1]!] ?? { type: 'string' },
  }));
  if (route.query) {
    const query = collector.convert(route.query, 'input');
    const required = new Set((query.required ?? []) as string[]);
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, unknown>))
      list.push({ name, in: 'query', required: required.has(name), schema });
  }
  if (route.slug) {
    const endpoint = CATALOGUE[route.slug];
    if (endpoint.acceptsWait)
      list.push({
        name: 'wait',
        in: 'query',
        required: false,
        schema: { type: 'boolean', default: false },
        description: 'hold until the job settles (30 s ceiling locally, 28 s on AWS)',
      });
    list.push({
      name: SCENARIO_HEADER,
      in: 'header',
      required: false,
      schema: { type: 'string', enum: [...endpoint.scenarios] },
      description: 'test keys only: steer the test-mode backend',
    });
    list.push({
      name: DEADLINE_HEADER,
      in: 'header',
      required: false,
      schema: { type: 'integer', minimum: MIN_DEADLINE_SECONDS, maximum: MAX_DEADLINE_SECONDS },
      description: `whole seconds after \`created\` by which the job must settle; past it, it expires (\`deadline_exceeded\`), charged nothing, and \`job.failed\` is sent. Anything but a whole number from ${MIN_DEADLINE_SECONDS} to ${MAX_DEADLINE_SECONDS} is \`400 parameter_invalid\``,
    });
  }
  if (takesIdempotencyKey(route))
    list.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 8, maxLength: 255 },
    });
  return list;
}

/** An inference route answers a job; the document shows it with that endpoint's own result (`PlateReadJob`, …). */
function responseSchema(route: RouteDefinition, response: ResponseSpec): z.ZodMiniType | undefined {
  return route.slug ? inferenceJobSchema(route.slug) : response.schema;
}

function operation(
  route: RouteDefinition,
  collector: SchemaCollector,
  shared: SharedErrorResponses,
): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const contentType = response.contentType ?? 'application/json';
    const schema = responseSchema(route, response);
    responses[status] = {
      description: response.description,
      headers: responseHeaders(route, Number(status)),
      content: { [contentType]: { schema: schema ? collector.convert(schema) : {} } },
    };
  }
  return {
    operationId: route.id,
    summary: route.summary,
    description: operationDescription(route),
    tags: [route.tag],
    security: route.signatureHeader === 'Stripe-Signature' ? [{ providerSignature: [] }] : SECURITY[route.auth],
    parameters: parameters(route, collector),
    ...(route.slug ? { requestBody: inferenceRequestBody(route.slug, collector) } : {}),
    ...(route.quoteOf ? { requestBody: inferenceRequestBody(route.quoteOf, collector, true) } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: collector.convert(route.body, 'input') } },
          },
        }
      : {}),
    responses: { ...responses, ...errorResponses(route, shared) },
  };
}

const AUTHENTICATION: Record<RouteDefinition['auth'], string> = {
  api_key:
    'Authenticated by an organisation API key (`Authorization: Bearer chk_live_…` or `chk_test_…`); every answer after authentication carries the rate-limit headers.',
  jwt: 'Authenticated by a dashboard token (`Authorization: Bearer <JWT>`), never an API key.',
  signature: 'Authenticated by a signature over the raw body, not by a key.',
  none: 'No authentication.',
};

/** How an inference call is billed and steered, from the catalogue: the same table admission reads. */
function inferenceDetails(slug: EndpointSlug): string[] {
  const endpoint = CATALOGUE[slug];
  const unit = { per_image: 'image', per_request: 'call', per_second: 'second of input', per_inspection: 'inspection' }[
    endpoint.metering
  ];
  return [
    `Admits an asynchronous job (\`202\`) and reserves its credits at once: ${endpoint.price} credits per ${unit} (\`${endpoint.metering}\`); a failed job charges nothing.`,
    endpoint.acceptsWait
      ? 'With `wait=true` the call holds until the job settles (`200`) or the wait ceiling passes (`202`).'
      : '`wait=true` is refused (`400 wait_not_supported`): poll the job or take its webhook.',
    endpoint.requiresJsonEncoding
      ? 'Inputs travel only as JSON `input_ref`/`input_refs` from `POST /v1/uploads`.'
      : 'Inputs travel as multipart files, or as JSON `input_ref`/`input_refs` from `POST /v1/uploads`.',
    `Test keys may steer it with \`${SCENARIO_HEADER}\`: ${endpoint.scenarios.map((scenario) => `\`${scenario}\``).join(', ')}.`,
    `\`${DEADLINE_HEADER}: <seconds>\` bounds how long the job may take: unsettled by then, it expires (\`deadline_exceeded\`) and charges nothing.`,
  ];
}

function quoteDetails(slug: EndpointSlug): string[] {
  return [
    `Takes the JSON body of \`POST /v1/${slug}\` and answers what that call would reserve now and charge on success, checked as the call is checked (the same errors) and priced by the same rule.`,
    CATALOGUE[slug].fileField
      ? 'Instead of upload references, `inputs` may describe the files (media type, size, duration).'
      : 'The endpoint takes parameters only.',
    "Nothing is written: no job, no ledger entry, no idempotency record; quotes count in a rate-limit window of their own per API key, not the call's.",
  ];
}

/**
 * Every operation's description, from its definition: what it does (its summary, which names the
 * least role of a management route), how it is authenticated, how Idempotency-Key applies, and for an inference call its
 * price, metering, `wait` support, encodings and scenarios.
 */
function operationDescription(route: RouteDefinition): string {
  const sentences = [route.summary.endsWith('.') ? route.summary : `${route.summary}.`, AUTHENTICATION[route.auth]];
  if (route.signatureHeader) sentences.push(`The signature travels in \`${route.signatureHeader}\`.`);
  if (takesIdempotencyKey(route))
    sentences.push(
      route.middleware.includes('idempotency-without-secret')
        ? 'An `Idempotency-Key` replays the stored answer for 24 h, without the secret it showed once.'
        : 'An `Idempotency-Key` replays the stored answer for 24 h and executes nothing twice.',
    );
  if (route.slug) sentences.push(...inferenceDetails(route.slug));
  if (route.quoteOf) sentences.push(...quoteDetails(route.quoteOf));
  return sentences.join(' ');
}

/** What each family of routes does, as a caller reads it in the reference's menu. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Jobs: 'Read a job, list your jobs, cancel a queued job and redact a settled one; the catalogue of endpoints with their prices.',
  Uploads:
    'Send a video, a large image or a batch file to a presigned URL, then name it by its `upload_ref` in a call.',
  Batches:
    'Run one endpoint over a JSONL file of calls: each line becomes a job of its own, and one output file answers every line in order.',
  Management:
    'Your organisation, with a dashboard token: API keys and spend limits, usage, job history, the credit ledger, billing, members and webhook endpoints.',
  Internal:
    'The OpenAPI document itself, the error pages, the key set that verifies dashboard tokens, and the callbacks the inference plane and the payment provider send.',
  Inspections:
    'The eight-stage inspection: a walk-around video and photos in; the vehicle identified, its damage found, graded and priced, and its listing rendered, each stage reported as it completes.',
};

/** A family's tag: the models it holds, from the catalogue, and what a call to one of them does. */
function familyDescription(tag: string): string | undefined {
  const endpoints = Object.values(CATALOGUE).filter((endpoint) =>
    DOCUMENTED_ROUTES.some((route) => route.path === `/v1/${endpoint.slug}` && route.tag === tag),
  );
  if (endpoints.length === 0 || endpoints.some((endpoint) => endpoint.family === 'inspections')) return undefined;
  return `${endpoints.map((endpoint) => endpoint.name).join(', ')}. Each call admits an asynchronous job that reserves its credits at once and charges only on success (an API key with the \`${endpoints[0]!.family}\` scope); \`POST …/quote\` prices a call before you make it.`;
}

export function buildOpenApiDocument(serverUrl = '/'): Record<string, unknown> {
  const collector = new SchemaCollector();
  const shared = new SharedErrorResponses();
  collector.convert(ErrorEnvelopeSchema);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of DOCUMENTED_ROUTES) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route, collector, shared);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Automotive Inference Service',
      version: DEFAULT_CONFIG.apiVersion,
      description: 'Automotive computer-vision, audio and pricing models as asynchronous jobs.',
      // the product's own terms, not an SPDX placeholder: the reference shows the licence's name as written
      license: { name: 'Automotive Inference: proprietary, for use under your customer agreement' },
    },
    tags: [...new Set(DOCUMENTED_ROUTES.map((route) => route.tag))].map((name) => ({
      name,
      description: TAG_DESCRIPTIONS[name] ?? familyDescription(name) ?? name,
    })),
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: collector.components,
      responses: shared.components,
      headers: {
        RequestId: { description: 'identifier of the request (req_…)', schema: { type: 'string' } },
        RateLimitLimit: {
          description:
            'calls allowed in the current 60 s window for this organisation, mode and endpoint (or the shared window of the other /v1 routes); absent on answers made before the key was known or by the gateway itself',
          schema: { type: 'integer', minimum: 0 },
        },
        RateLimitRemaining: {
          description: 'calls left in the current window',
          schema: { type: 'integer', minimum: 0 },
        },
        RateLimitReset: { description: 'epoch second at which the current window resets', schema: { type: 'integer' } },
        RateLimitPolicy: {
          description:
            'the quota in the IETF draft\'s form (draft-ietf-httpapi-ratelimit-headers), beside RateLimit-Limit: `"default";q=<RateLimit-Limit>;w=60` (w=1 on the one-poll-a-second limit of a job)',
          schema: { type: 'string', pattern: '^"default";q=\\d+;w=\\d+$', maxLength: 64 },
        },
        RateLimit: {
          description:
            'the window\'s state in the IETF draft\'s form, beside RateLimit-Remaining and RateLimit-Reset: `"default";r=<RateLimit-Remaining>;t=<seconds until RateLimit-Reset>`; clients that back off should prefer it',
          schema: { type: 'string', pattern: '^"default";r=\\d+;t=\\d+$', maxLength: 64 },
        },
        RetryAfter: {
          description:
            'seconds to wait before retrying: until the window resets on a 429, or until the first request with this Idempotency-Key finishes on a 409',
          schema: { type: 'integer', minimum: 1 },
        },
        SvcDeadline: {
          description:
            'the Svc-Deadline the job runs under, echoed (replays and wait=true answers too); absent when the call sent none',
          schema: { type: 'integer', minimum: MIN_DEADLINE_SECONDS, maximum: MAX_DEADLINE_SECONDS },
        },
        IdempotentReplayed: {
          description:
            'present (and true) only when this is the stored answer of an earlier request with the same Idempotency-Key; nothing was executed or billed',
          schema: { type: 'string', enum: ['true'] },
        },
      },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'organisation API key, chk_live_… or chk_test_…' },
        dashboardJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        inferenceSignature: { type: 'apiKey', in: 'header', name: 'X-Inference-Signature' },
        providerSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'Stripe-Signature',
          description: "the payment provider's webhook signature",
        },
      },
    },
  };
}

function pascal(slug: string): string {
  return slug
    .split(/[^a-z0-9]/i)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The job an inference call answers, with that endpoint's own result schema (`PlateReadJob`, …). */
function inferenceJobSchema(slug: EndpointSlug): z.ZodMiniType {
  if (slug === 'inspections') return JobSchema;
  return meta(z.extend(JobSchema, { result: z.nullable(resultSchemas[slug]) }), { id: `${pascal(slug)}Job` });
}
