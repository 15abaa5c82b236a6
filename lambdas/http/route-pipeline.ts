import type { APIGatewayProxyEvent } from 'aws-lambda';
import { containerFromEnvironment, refreshRuntimeSecrets } from '../composition/container.js';
import type { Member } from '../domain/access/member.js';
import type { Principal } from '../domain/access/principal.js';
import { quoteBucket, READ_BUCKET, rateLimitError, rateLimitHeaders } from '../domain/access/rate-limits.js';
import { epochSeconds } from '../domain/kernel/clock.js';
import { ApiError, ERROR_CODES } from '../domain/kernel/errors.js';
import type { Services } from '../domain/ports/services.js';
import { type BoundRoute, type HttpHandler, httpHandler } from './handler.js';
import { authenticateCaller, type Caller } from './header-authentication.js';
import { fromStored, runIdempotently, withoutSecret } from './idempotency.js';
import { parseJsonBody } from './json-body.js';
import { singleValuedQuery } from './query.js';
import type { HttpRequest } from './request.js';
import { type HttpResponse, withHeaders } from './response.js';
import { type ImplementOptions, needsTokens, type RouteImplementation, type RouteInput } from './route-handler.js';
import type { RouteDefinition } from './routes/define.js';
import { requireInferenceSignature } from './signature-check.js';
import { validateParams } from './validation.js';

// The request pipeline of every route, loaded by `implement` (implement.ts) on a route's first request.

function pathParams(route: RouteDefinition, request: HttpRequest): unknown {
  if (!route.params) return undefined;
  const outcome = route.params.safeParse(request.pathParameters);
  if (outcome.success) return outcome.data;
  const name = String(outcome.error.issues[0]?.path[0] ?? '');
  const code = route.notFound ?? 'resource_not_found';
  throw new ApiError(
    code,
    name || null,
    `${ERROR_CODES[code].message.replace(/\.$/, '')}: ${request.pathParameters[name] ?? ''}.`,
  );
}

/** The first field of a JSON object body, whatever Content-Type it came with (`curl -d` says form-urlencoded). */
function firstJsonField(request: HttpRequest): string | undefined {
  if (request.body.length === 0) return undefined;
  try {
    const value: unknown = JSON.parse(request.body.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value)[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * "An unknown parameter is rejected, never ignored" on the API surfaces, for what a route does not
 * declare at all: any query parameter when it has no `query` schema, any field of a JSON body when it
 * has no `body` schema (an empty body or `{}` is fine). Inference routes parse their own (`wait`,
 * and the body, inference/call.ts). docs/architecture.md, "Undeclared parameters".
 */
function refuseUndeclared(route: RouteDefinition, request: HttpRequest): void {
  if ((route.auth !== 'api_key' && route.auth !== 'jwt') || route.slug || route.quoteOf) return;
  const query = route.query ? undefined : Object.keys(request.query)[0];
  if (query !== undefined)
    throw new ApiError('parameter_unknown', query, `Unknown query parameter ${query}: this route takes none.`);
  const field = route.body ? undefined : firstJsonField(request);
  if (field !== undefined)
    throw new ApiError('parameter_unknown', field, `Unknown parameter ${field}: this route takes no body.`);
}

function validatedInput(route: RouteDefinition, request: HttpRequest) {
  refuseUndeclared(route, request);
  return {
    params: pathParams(route, request),
    query: route.query ? validateParams(route.query, singleValuedQuery(request)) : undefined,
    body: route.body ? parseJsonBody(request, route.body) : undefined,
  };
}

type Run = (request: HttpRequest, caller: { principal?: Principal; member?: Member }) => Promise<HttpResponse>;

/**
 * API-key routes: the key, the plan's rate limit (headers on every answer, 429 with no side
 * effect; a quote counts in its key's own window), Idempotency-Key, then the route. An inference call's checks are its admission's
 * (domain/jobs/admission.ts), so its route gets the caller alone.
 */
async function apiKeyPipeline(
  services: Services,
  route: RouteDefinition,
  request: HttpRequest,
  caller: Caller,
  run: Run,
): Promise<HttpResponse> {
  const principal = caller.principal!;
  if (route.slug) return run(request, { principal });
  const plan = await services.plans.planOf(principal.orgId);
  const bucket = route.quoteOf ? quoteBucket(principal.apiKeyId) : READ_BUCKET;
  const decision = await services.rateLimiter.check(services.clock, {
    orgId: principal.orgId,
    livemode: principal.livemode,
    plan,
    bucket,
  });
  const headers = rateLimitHeaders(decision, epochSeconds(services.clock));
  if (!decision.allowed) throw rateLimitError(decision, bucket, plan, epochSeconds(services.clock), headers);
  try {
    // a quote writes nothing, so there is nothing to replay (docs/quotes.md)
    if (route.quoteOf) {
      const response = await run(request, { principal });
      return { ...response, headers: { ...headers, ...response.headers } };
    }
    const response = await runIdempotently(
      services,
      `${principal.orgId}#${principal.livemode ? 'live' : 'test'}`,
      request,
      () => run(request, { principal }),
      {
        scenarioIgnored: principal.livemode,
      },
    );
    return { ...response, headers: { ...headers, ...response.headers } };
  } catch (error) {
    throw withHeaders(error, headers);
  }
}

/** Management routes: a verified dashboard JWT (never an API key) with the route's minimum role, Idempotency-Key, then the route. */
async function jwtPipeline(
  services: Services,
  route: RouteDefinition,
  request: HttpRequest,
  caller: Caller,
  run: Run,
): Promise<HttpResponse> {
  const member = caller.member!;
  const storedForm = route.idempotency === 'without-secret' ? withoutSecret : undefined;
  return runIdempotently(services, `${member.orgId}#mgmt`, request, () => run(request, { member }), { storedForm });
}

/** The one wrapper: picks the pipeline from the route's auth kind, validates what the route declares, calls the handler with typed values. */
function routeHttpHandler<R extends RouteDefinition>(
  services: Services,
  route: R,
  implementation: RouteImplementation<R>,
): BoundRoute {
  return httpHandler(
    services,
    async (request, { caller, log }) => {
      const run: Run = async (request, known) => {
        const input = {
          route,
          services,
          request,
          log,
          ...validatedInput(route, request),
          ...known,
        } as unknown as RouteInput<R>;
        const jobId = (input.params as { id?: unknown } | undefined)?.id;
        if (typeof jobId === 'string' && jobId.startsWith('job_')) log.job_id = jobId;
        const reply = await implementation(input);
        const response: HttpResponse =
          'replayed' in reply
            ? {
                ...fromStored(reply.replayed, request.requestId),
                headers: { ...reply.headers, 'Idempotent-Replayed': 'true' },
              }
            : reply;
        const body = response.body as { object?: unknown; id?: unknown } | null;
        if (body && typeof body === 'object' && body.object === 'job' && typeof body.id === 'string')
          log.job_id = body.id;
        return response;
      };
      if (route.auth === 'api_key' || route.auth === 'jwt') {
        // the same checks as the local API adapter's, which made them before reading the body when it passes the caller
        const known = caller ?? (await authenticateCaller(services, route, request.headers.authorization, log));
        log.org_id = (known.principal ?? known.member)!.orgId;
        return route.auth === 'api_key'
          ? apiKeyPipeline(services, route, request, known, run)
          : jwtPipeline(services, route, request, known, run);
      }
      if (route.signatureHeader === 'X-Inference-Signature') requireInferenceSignature(services, request);
      return run(request, {});
    },
    route.id,
  );
}

/** Picks the route of an event (one handler module may serve several routes, e.g. every inference slug). */
function routeOf<R extends RouteDefinition>(routes: readonly R[], event: APIGatewayProxyEvent): R {
  if (routes.length === 1) return routes[0]!;
  const route = routes.find((r) => r.path === event.resource && r.method === event.httpMethod);
  if (!route) throw new Error(`no route for ${event.httpMethod} ${event.resource}`);
  return route;
}

async function servicesFor(routes: readonly RouteDefinition[], options: ImplementOptions): Promise<Services> {
  const container = containerFromEnvironment();
  const tokenVerifier = options.tokenVerifier && routes.some(needsTokens) ? await options.tokenVerifier() : undefined;
  const withTokens = tokenVerifier
    ? { ...container, tokens: tokenVerifier(container.clock) ?? container.tokens }
    : container;
  return options.extend ? (await options.extend())(withTokens) : withTokens;
}

/** The routes of a module bound to `services`: each request goes to the route its event names. */
export function bindRoutes<R extends RouteDefinition>(
  services: Services,
  routes: readonly R[],
  implementation: RouteImplementation<R>,
): BoundRoute {
  const handlers = new Map(routes.map((route) => [route.id, routeHttpHandler(services, route, implementation)]));
  return (event, context, caller) => handlers.get(routeOf(routes, event).id)!(event, context, caller);
}

/** The Lambda entry of a module's routes: services built once per cold start from the stack's environment. */
export async function lambdaHandler<R extends RouteDefinition>(
  routes: readonly R[],
  implementation: RouteImplementation<R>,
  options: ImplementOptions,
): Promise<HttpHandler> {
  const bound = bindRoutes(await servicesFor(routes, options), routes, implementation);
  const needsCallbackSecret = routes.some((route) => route.settings?.includes('inference_callback_secret'));
  return async (event, context) => {
    if (needsCallbackSecret) await refreshRuntimeSecrets(containerFromEnvironment());
    return bound(event, context);
  };
}
