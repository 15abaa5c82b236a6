import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { type Container, containerFromEnvironment, refreshRuntimeSecrets } from '../composition/container.js';
import type { Member } from '../domain/access/member.js';
import type { Principal } from '../domain/access/principal.js';
import { quoteBucket, READ_BUCKET, rateLimitError, rateLimitHeaders } from '../domain/access/rate-limits.js';
import { type Clock, epochSeconds } from '../domain/kernel/clock.js';
import { ApiError, ERROR_CODES } from '../domain/kernel/errors.js';
import type { StoredResponse, TokenVerifier } from '../domain/ports/access.js';
import type { Services } from '../domain/ports/services.js';
import { type BoundRoute, type HttpHandler, httpHandler } from './handler.js';
import { authenticateCaller, type Caller } from './header-authentication.js';
import { fromStored, runIdempotently, withoutSecret } from './idempotency.js';
import { parseJsonBody } from './json-body.js';
import { singleValuedQuery } from './query.js';
import type { HttpRequest, RequestLogFields } from './request.js';
import type { HttpResponse } from './response.js';
import type { RouteDefinition } from './routes/define.js';
import { requireInferenceSignature } from './signature-check.js';
import { validateParams } from './validation.js';

type Parsed<S> = S extends z.ZodMiniType ? z.output<S> : undefined;
type BodyOf<S> = S extends { schema: z.ZodMiniType } ? z.output<S['schema']> : string;

/**
 * What a handler may answer: one of its route's declared statuses, with that status's body type;
 * or, for a handler that runs its own Idempotency-Key (the admission), the answer the key stored.
 */
export type RouteReply<R extends RouteDefinition> =
  | {
      [S in keyof R['responses']]: {
        status: S extends number ? S : never;
        body: BodyOf<R['responses'][S]>;
        headers?: Record<string, string>;
        contentType?: string;
      };
    }[keyof R['responses']]
  | { replayed: StoredResponse; headers: Record<string, string> };

type CallerOf<R extends RouteDefinition> = R['auth'] extends 'api_key'
  ? { principal: Principal }
  : R['auth'] extends 'jwt'
    ? { member: Member }
    : unknown;

/** The typed, validated input of a handler: its route's schemas decide the types. */
export type RouteInput<R extends RouteDefinition> = {
  route: R;
  services: Services;
  request: HttpRequest;
  /** the request's log line: a handler adds what it learns (the job a callback names) */
  log: RequestLogFields;
  params: Parsed<R['params']>;
  query: Parsed<R['query']>;
  body: Parsed<R['body']>;
} & CallerOf<R>;

export type RouteImplementation<R extends RouteDefinition> = (input: RouteInput<R>) => Promise<RouteReply<R>>;

/** A handler module's `handler` export: the Lambda entry, and what the local runtime binds to its own services. */
export interface RouteHandler extends HttpHandler {
  readonly routes: readonly RouteDefinition[];
  forServices(services: Services): BoundRoute;
}

export interface ImplementOptions {
  /** adds what the route's `settings` need beyond the service itself (the payment provider, the identity provider) */
  extend?: (container: Container) => Container;
  /**
   * routes that verify dashboard tokens (JWT auth, or the `jwt_issuer` setting): the verifier from the
   * environment, passed by their handlers (implement-jwt.ts) so that only their bundles carry `jose`
   */
  tokenVerifier?: (clock: Clock) => TokenVerifier | undefined;
}

function needsTokens(route: RouteDefinition): boolean {
  return route.auth === 'jwt' || route.settings?.includes('jwt_issuer') === true;
}

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

export function withHeaders(error: unknown, headers: Record<string, string>): unknown {
  return error instanceof ApiError
    ? new ApiError(error.code, error.param, error.message, { ...headers, ...error.headers })
    : error;
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

function servicesFor(routes: readonly RouteDefinition[], options: ImplementOptions): Services {
  const container = containerFromEnvironment();
  const withTokens =
    options.tokenVerifier && routes.some(needsTokens)
      ? { ...container, tokens: options.tokenVerifier(container.clock) ?? container.tokens }
      : container;
  return options.extend ? options.extend(withTokens) : withTokens;
}

/**
 * A handler module's `handler` export. On Lambda the services are built once per cold start from
 * the stack's environment; the local runtime binds its own with `forServices`.
 */
export function implement<R extends RouteDefinition>(
  routes: R | readonly R[],
  implementation: RouteImplementation<NoInfer<R>>,
  options: ImplementOptions = {},
): RouteHandler {
  const list: readonly R[] = Array.isArray(routes) ? routes : [routes as R];
  const provided: ReadonlyArray<NonNullable<RouteDefinition['settings']>[number]> = [
    'payments',
    'identity_provider',
    'invitations',
  ];
  const unprovided = list.find(
    (route) => route.settings?.some((setting) => provided.includes(setting)) && !options.extend,
  );
  if (unprovided)
    throw new Error(`route ${unprovided.id} needs its provider (payments, identity): pass options.extend`);
  const unverified = list.find((route) => needsTokens(route) && !options.tokenVerifier);
  if (unverified) throw new Error(`route ${unverified.id} verifies dashboard tokens: implement it with implementJwt`);
  const forServices = (services: Services): BoundRoute => {
    const handlers = new Map(list.map((route) => [route.id, routeHttpHandler(services, route, implementation)]));
    return (event, context, caller) => handlers.get(routeOf(list, event).id)!(event, context, caller);
  };
  let lambda: BoundRoute | undefined;
  const needsCallbackSecret = list.some((route) => route.settings?.includes('inference_callback_secret'));
  const handler = async (event: APIGatewayProxyEvent, context: Context) => {
    if (needsCallbackSecret) await refreshRuntimeSecrets(containerFromEnvironment());
    lambda ??= forServices(servicesFor(list, options));
    return lambda(event, context);
  };
  return Object.assign(handler, { routes: list, forServices });
}
