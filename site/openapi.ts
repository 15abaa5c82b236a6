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

  /**
   * Points `$defs` references at the components, and drops the bounds zod gives every integer
   * (±2^53 − 1, what a JavaScript number holds exactly): they say nothing a caller can act on, and
   * repeated on every count and timestamp they were a tenth of the document.
   */
  private rewriteRefs(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.rewriteRefs(item));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(
          ([key, inner]) =>
            !(key === 'minimum' && inner === Number.MIN_SAFE_INTEGER) &&
            !(key === 'maximum' && inner === Number.MAX_SAFE_INTEGER),
        )
        .map(([key, inner]) => [
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

/** What a response's headers say about it, as a component's name reads them (`Error429LimitedRetry`, `PlateReadJobLimitedReplayableDeadline`…). */
function headerTraits(headers: Record<string, unknown>): string {
  return [
    headers['RateLimit-Limit'] ? 'Limited' : '',
    headers['Retry-After'] ? 'Retry' : '',
    headers['Idempotent-Replayed'] ? 'Replayable' : '',
    headers[DEADLINE_HEADER] ? 'Deadline' : '',
  ].join('');
}

/** An error answer's description: the codes it answers with, in a stable order. */
const errorDescription = (codes: readonly ErrorCode[]) => `error codes: ${[...codes].sort().join(', ')}`;

/** Each documented route's error codes, by the status they answer with. */
function errorCodesByStatus(route: RouteDefinition): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

/**
 * A set of error codes is worth a component of its own once this many operations answer with it:
 * a component costs its headers (about 450 bytes), an operation that names its codes about 100.
 */
const SHARED_CODE_SET_USES = 5;

/**
 * The answers of the document, shared: one component per body and set of headers (an error of a
 * key-authenticated route carries the rate-limit headers, a job the endpoint's result, …), which
 * each operation references. An error component says the codes most operations answer with for
 * its status and headers; an operation that answers with other codes says its own. Repeated
 * inline, the answers were a third of the document (docs/internals/testing.md: the document stays under
 * 300 KB).
 */
class SharedResponses {
  readonly components: Record<string, unknown> = {};
  private readonly names = new Map<string, string>();
  /** How many operations answer each error (status, headers and codes), most answered first. */
  private readonly errorUses = new Map<string, number>();

  constructor(routes: readonly RouteDefinition[]) {
    const uses = new Map<string, number>();
    for (const route of routes)
      for (const [status, codes] of errorCodesByStatus(route)) {
        const key = this.errorKey(route, status, codes);
        uses.set(key, (uses.get(key) ?? 0) + 1);
      }
    for (const [key, count] of [...uses].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)))
      this.errorUses.set(key, count);
  }

  private errorKey(route: RouteDefinition, status: number, codes: readonly ErrorCode[]): string {
    return `Error${status}${headerTraits(responseHeaders(route, status))} ${errorDescription(codes)}`;
  }

  /**
   * `description` is this operation's. The component's own is the one `response` carries, else that
   * of its first use; a reference whose description is the component's leaves it out.
   */
  private reference(base: string, description: string, response: Record<string, unknown>): Record<string, unknown> {
    const key = `${base} ${JSON.stringify(response)}`;
    let name = this.names.get(key);
    if (!name) {
      name = base;
      for (let n = 2; this.components[name]; n += 1) name = `${base}${n}`;
      this.names.set(key, name);
      this.components[name] = { description, ...response };
    }
    const shared = (this.components[name] as { description: string }).description;
    return { $ref: `#/components/responses/${name}`, ...(description === shared ? {} : { description }) };
  }

  /**
   * An error answer: the component of its codes when enough operations share them, else the
   * component of the codes answered most often with that status and headers, described anew.
   */
  error(route: RouteDefinition, status: number, codes: readonly ErrorCode[]): Record<string, unknown> {
    const headers = responseHeaders(route, status);
    const base = `Error${status}${headerTraits(headers)}`;
    const description = errorDescription(codes);
    const key = this.errorKey(route, status, codes);
    const mostAnswered = [...this.errorUses.keys()].find((other) => other.startsWith(`${base} `))!;
    const sharedKey = this.errorUses.get(key)! >= SHARED_CODE_SET_USES ? key : mostAnswered;
    const content = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };
    // the most answered codes name the component by status and headers alone; a single other code names its own
    const name = sharedKey !== mostAnswered && codes.length === 1 ? `${base}${pascal(codes[0]!)}` : base;
    return this.reference(name, description, { description: sharedKey.slice(base.length + 1), headers, content });
  }

  /** A success answer: shared when its body is a named schema, inline otherwise (a page, a file). */
  success(description: string, headers: Record<string, unknown>, contentType: string, schema: JsonSchema) {
    const response = { headers, content: { [contentType]: { schema } } };
    const named = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop()! : undefined;
    if (!named) return { description, ...response };
    const type = contentType === 'application/json' ? '' : pascal(contentType.split('/').pop()!);
    return this.reference(`${named}${type}${headerTraits(headers)}`, description, response);
  }
}

function errorResponses(route: RouteDefinition, shared: SharedResponses): Record<string, unknown> {
  return Object.fromEntries(
    [...errorCodesByStatus(route)].map(([status, codes]) => [String(status), shared.error(route, status, codes)]),
  );
}

/**
 * An endpoint's own parameters (`PlateReadParameters`, …), one component that the call's two
 * encodings and its quote share, so each parameter is written once. Open, as a form is: each body
 * that names it closes itself (`unevaluatedProperties: false` on JSON, which sees through `allOf`).
 */
function endpointParameters(slug: EndpointSlug, collector: SchemaCollector): JsonSchema | undefined {
  const params = collector.convert(slug === 'inspections' ? inspectionParamsSchema : paramSchemas[slug], 'input');
  const properties = (params.properties ?? {}) as Record<string, unknown>;
  if (Object.keys(properties).length === 0) return undefined;
  const required = (params.required ?? []) as string[];
  const name = `${pascal(slug)}Parameters`;
  collector.components[name] = { type: 'object', properties, ...(required.length ? { required } : {}) };
  return { $ref: `#/components/schemas/${name}` };
}

/** An inference call's body in either encoding; a quote's (`quote`) is its JSON form, where `inputs` may describe the files. */
function inferenceRequestBody(slug: EndpointSlug, collector: SchemaCollector, quote = false): Record<string, unknown> {
  const endpoint = CATALOGUE[slug];
  const params = endpointParameters(slug, collector);
  const withParams = params ? { allOf: [params] } : {};
  const paramsRequired = params
    ? ((collector.components[String(params.$ref).split('/').pop()!]!.required ?? []) as string[])
    : [];
  const content: Record<string, unknown> = {};
  const multiAsset = endpoint.maxAssets > 1;
  // every body that names an upload, or sends a file, shares one schema of it
  collector.components.UploadRef = {
    type: 'string',
    pattern: UPLOAD_REF_SHAPE.source,
    description: 'upload_ref from POST /v1/uploads',
  };
  const uploadRef = { $ref: '#/components/schemas/UploadRef' };
  const jsonInput: Record<string, unknown> = !endpoint.fileField
    ? {}
    : multiAsset
      ? {
          input_refs: { type: 'array', items: uploadRef, minItems: endpoint.minAssets, maxItems: endpoint.maxAssets },
          // one asset may also come as a single reference (docs/internals/uploads.md)
          ...(endpoint.minAssets <= 1
            ? { input_ref: { ...uploadRef, description: 'one upload_ref, instead of input_refs' } }
            : {}),
        }
      : { input_ref: uploadRef };
  if (quote && endpoint.fileField) jsonInput.inputs = collector.convert(DescribedInputsSchema, 'input');
  // the input itself is required: one of the reference fields the endpoint takes
  const inputChoice = Object.keys(jsonInput);
  const jsonSchema: Record<string, unknown> = {
    type: 'object',
    ...withParams,
    ...(inputChoice.length ? { properties: jsonInput } : {}),
    ...(inputChoice.length === 1 ? { required: inputChoice } : {}),
    ...(inputChoice.length > 1 ? { oneOf: inputChoice.map((name) => ({ required: [name] })) } : {}),
    unevaluatedProperties: false,
  };
  content['application/json'] = { schema: jsonSchema };
  if (endpoint.fileField && !endpoint.requiresJsonEncoding && !quote) {
    const maxFileBytes = DEFAULT_CONFIG.maxFileBytes;
    collector.components.MultipartFile = {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      maxLength: maxFileBytes,
      description: `a file of at most ${maxFileBytes / 1024 / 1024} MB`,
    };
    const file = { $ref: '#/components/schemas/MultipartFile' };
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
      schema: { type: 'object', ...withParams, properties: field, required: [endpoint.fileField] },
    };
  }
  return { required: !!endpoint.fileField || paramsRequired.length > 0, content };
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
    if (endpoint.acceptsWait) list.push(parameter('Wait'));
    list.push(
      sameScenarios(endpoint.scenarios, SHARED_PARAMETERS.TestScenario.schema.enum)
        ? parameter('TestScenario')
        : { ...SHARED_PARAMETERS.TestScenario, schema: { type: 'string', enum: [...endpoint.scenarios] } },
    );
    list.push(parameter('Deadline'));
  }
  if (takesIdempotencyKey(route)) list.push(parameter('IdempotencyKey'));
  return list;
}

const sameScenarios = (a: readonly string[], b: readonly string[]) => a.join() === b.join();

/** The test scenarios most endpoints take: their scenario header is one shared parameter, the others' their own. */
function mostCommonScenarios(): string[] {
  const lists = Object.values(CATALOGUE).map((endpoint) => endpoint.scenarios);
  const uses = (list: readonly string[]) => lists.filter((other) => sameScenarios(other, list)).length;
  return [...lists.reduce((most, list) => (uses(list) > uses(most) ? list : most))];
}

/** The parameters many operations take, written once (components.parameters). */
const SHARED_PARAMETERS = {
  TestScenario: {
    name: SCENARIO_HEADER,
    in: 'header',
    required: false,
    schema: { type: 'string', enum: mostCommonScenarios() },
    description: 'test keys only: steer the test-mode backend',
  },
  Wait: {
    name: 'wait',
    in: 'query',
    required: false,
    schema: { type: 'boolean', default: false },
    description: 'hold until the job settles: 30 s at most (27 s on an AWS stack without a raised integration timeout)',
  },
  Deadline: {
    name: DEADLINE_HEADER,
    in: 'header',
    required: false,
    schema: { type: 'integer', minimum: MIN_DEADLINE_SECONDS, maximum: MAX_DEADLINE_SECONDS },
    description: `whole seconds after \`created\` by which the job must settle; past it, it expires (\`deadline_exceeded\`), charged nothing, and \`job.failed\` is sent. Anything but a whole number from ${MIN_DEADLINE_SECONDS} to ${MAX_DEADLINE_SECONDS} is \`400 parameter_invalid\``,
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    schema: { type: 'string', minLength: 8, maxLength: 255 },
    description:
      'replays the stored answer of an earlier request with the same key for 24 h, and executes nothing twice',
  },
} as const;

const parameter = (name: keyof typeof SHARED_PARAMETERS) => ({ $ref: `#/components/parameters/${name}` });

/** An inference route answers a job; the document shows it with that endpoint's own result (`PlateReadJob`, …). */
function responseSchema(route: RouteDefinition, response: ResponseSpec, collector: SchemaCollector): JsonSchema {
  if (route.slug) return inferenceJobSchema(route.slug, collector);
  return response.schema ? collector.convert(response.schema) : {};
}

function operation(
  route: RouteDefinition,
  collector: SchemaCollector,
  shared: SharedResponses,
): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = shared.success(
      response.description,
      responseHeaders(route, Number(status)),
      response.contentType ?? 'application/json',
      responseSchema(route, response, collector),
    );
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

/** A sentence per kind of authentication; the security scheme (components.securitySchemes) says the rest once. */
const AUTHENTICATION: Record<RouteDefinition['auth'], string> = {
  api_key: 'Authenticated by an API key; answers carry the rate-limit headers.',
  jwt: 'Authenticated by a dashboard token, never an API key.',
  signature: 'Authenticated by a signature over the raw body, not by a key.',
  none: 'No authentication.',
};

/**
 * How an inference call is billed and steered, from the catalogue: the same table admission reads.
 * What a parameter says itself (`wait`, the scenarios, `Svc-Deadline`, `Idempotency-Key`) and what
 * the body's encodings show is not repeated here.
 */
function inferenceDetails(slug: EndpointSlug): string[] {
  const endpoint = CATALOGUE[slug];
  const unit = { per_image: 'image', per_request: 'call', per_second: 'second of input', per_inspection: 'inspection' }[
    endpoint.metering
  ];
  return [
    `Admits an asynchronous job (\`202\`) and reserves its credits at once: ${endpoint.price} credits per ${unit} (\`${endpoint.metering}\`); a failed job charges nothing.`,
    endpoint.acceptsWait
      ? '`wait=true` answers `200` once the job settles.'
      : '`wait=true` is refused (`400 wait_not_supported`): poll the job or take its webhook.',
  ];
}

function quoteDetails(slug: EndpointSlug): string[] {
  return [
    `Answers what \`POST /v1/${slug}\` with this body would reserve now and charge on success, checked and priced as that call is.`,
    'Writes nothing; quotes have a rate-limit window of their own.',
  ];
}

/**
 * Every operation's description, from its definition: how it is authenticated, and for an inference
 * call its price, metering and `wait` support. What it does is its summary (which names the least
 * role of a management route), the heading the reference shows above it, so it is not restated.
 */
function operationDescription(route: RouteDefinition): string {
  const sentences = [AUTHENTICATION[route.auth]];
  if (route.signatureHeader) sentences.push(`The signature travels in \`${route.signatureHeader}\`.`);
  if (route.middleware.includes('idempotency-without-secret'))
    sentences.push('A replay under its `Idempotency-Key` answers without the secret it showed once.');
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
  const shared = new SharedResponses(DOCUMENTED_ROUTES);
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
      parameters: SHARED_PARAMETERS,
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
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An organisation API key: `Authorization: Bearer chk_live_…` (live) or `chk_test_…` (test mode). Every answer after authentication carries the rate-limit headers.',
        },
        dashboardJwt: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A dashboard token: `Authorization: Bearer <JWT>`, never an API key.',
        },
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

/**
 * The job an inference call answers: the one `Job` envelope, its `result` narrowed to the endpoint's
 * own result schema (`PlateReadJob` is `Job` and `PlateReadResult`). The envelope is written once and
 * referenced: repeated around each of the 24 results, it was a tenth of the document.
 */
function inferenceJobSchema(slug: EndpointSlug, collector: SchemaCollector): JsonSchema {
  const envelope = collector.convert(JobSchema);
  if (slug === 'inspections') return envelope;
  const name = `${pascal(slug)}Job`;
  collector.components[name] ??= {
    allOf: [
      envelope,
      {
        type: 'object',
        properties: {
          result: {
            anyOf: [collector.convert(meta(resultSchemas[slug], { id: `${pascal(slug)}Result` })), { type: 'null' }],
          },
        },
        required: ['result'],
      },
    ],
  };
  return { $ref: `#/components/schemas/${name}` };
}
