import middy from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { containerFromEnvironment, refreshRuntimeSecrets } from '../composition/container.js';
import { quoteBucket, READ_BUCKET } from '../domain/access/rate-limits.js';
import { ApiError, ERROR_CODES } from '../domain/kernel/errors.js';
import type { Services } from '../domain/ports/services.js';
import { type BoundRoute, type HttpHandler, httpHandler } from './handler.js';
import { fromStored, withoutSecret } from './idempotency.js';
import { parseJsonBody } from './json-body.js';
import { authentication } from './middleware/authentication.js';
import { idempotency } from './middleware/idempotency.js';
import { rateLimit } from './middleware/rate-limit.js';
import type { RouteContext, RouteMiddleware } from './middleware/route-middleware.js';
import { strictInput } from './middleware/strict-input.js';
import { singleValuedQuery } from './query.js';
import type { HttpRequest } from './request.js';
import type { HttpResponse } from './response.js';
import { type ImplementOptions, needsTokens, type RouteImplementation, type RouteInput } from './route-handler.js';
import type { MiddlewareName, RouteDefinition } from './routes/define.js';
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

function validatedInput(route: RouteDefinition, request: HttpRequest) {
  return {
    params: pathParams(route, request),
    query: route.query ? validateParams(route.query, singleValuedQuery(request)) : undefined,
    body: route.body ? parseJsonBody(request, route.body) : undefined,
  };
}

/** The middleware a route may declare, by name (routes/define.ts, `MiddlewareName`). */
const MIDDLEWARE: Record<MiddlewareName, () => RouteMiddleware> = {
  'read-rate-limit': () => rateLimit(() => READ_BUCKET),
  'quote-rate-limit': () => rateLimit((principal) => quoteBucket(principal.apiKeyId)),
  idempotency: () => idempotency(),
  'idempotency-without-secret': () => idempotency(withoutSecret),
  'strict-input': strictInput,
};

/**
 * A route's own pipeline, as middy middleware: authentication by its `auth`, then the middleware it
 * declares, in order; then its declared input is validated and its handler called with typed values.
 */
function routePipeline<R extends RouteDefinition>(route: R, implementation: RouteImplementation<R>) {
  const pipeline = middy<HttpRequest, HttpResponse, Error, RouteContext>({ timeoutEarlyInMillis: 0 }).use(
    authentication(),
  );
  for (const name of route.middleware) pipeline.use(MIDDLEWARE[name]());
  return pipeline.handler(async (request, context) => {
    const { services, log, principal, member } = context;
    const input = {
      route,
      services,
      request,
      log,
      ...validatedInput(route, request),
      ...(principal ? { principal } : {}),
      ...(member ? { member } : {}),
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
    if (body && typeof body === 'object' && body.object === 'job' && typeof body.id === 'string') log.job_id = body.id;
    return response;
  });
}

/** A route bound to its services: the shared wrapper (request id, error envelope, log line) around its own pipeline. */
function routeHttpHandler<R extends RouteDefinition>(
  services: Services,
  route: R,
  implementation: RouteImplementation<R>,
): BoundRoute {
  const pipeline = routePipeline(route, implementation);
  return httpHandler(
    services,
    (request, { caller, log }) =>
      pipeline(request, {
        services,
        route,
        log,
        knownCaller: caller,
        responseHeaders: {},
        // the route's own pipeline runs inside the request's Lambda handler (handler.ts), which owns
        // the invocation's context and timeout: this one carries the request's state alone
      } as unknown as RouteContext),
    route.id,
  );
}

/** Picks the route of an event (one handler module may serve several routes, e.g. every inference slug). */
function routeOf<R extends RouteDefinition>(routes: readonly R[], event: APIGatewayProxyEvent): R {
  if (routes.length === 1) return routes[0]!;
  const route = routes.find((r) => r.path === event.resource && (r.method === event.httpMethod || r.method === 'ANY'));
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
