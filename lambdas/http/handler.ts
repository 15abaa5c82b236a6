import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { InjectedFault } from '../domain/kernel/faults.js';
import { randomId } from '../domain/kernel/ids.js';
import type { Services } from '../domain/ports/services.js';
import type { Caller } from './header-authentication.js';
import { errorResult } from './middleware/error-envelope.js';
import { type HttpRequest, normaliseEvent, type RequestLogFields } from './request.js';
import { type HttpResponse, toProxyResult } from './response.js';
import { securityHeadersFor } from './security-headers.js';

/** A Lambda proxy handler. */
export type HttpHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * A route bound to its services. Lambda calls it with the event alone; the local API adapter, which
 * authenticates on the headers before it reads the body, passes the caller it found, so the key is
 * looked up once.
 */
export type BoundRoute = (
  event: APIGatewayProxyEvent,
  context: Context,
  caller?: Caller,
) => Promise<APIGatewayProxyResult>;

/** What a route implementation gets besides the request: the caller an adapter already authenticated, and the request's log line to add fields to. */
export interface Invocation {
  caller: Caller | undefined;
  log: RequestLogFields;
}

export type RouteImplementation = (request: HttpRequest, invocation: Invocation) => Promise<HttpResponse>;

type RequestContext = Context & { requestId: string; startedMs: number; logFields: RequestLogFields };

/**
 * Wraps a route implementation with what every route shares: a `req_` id and the browser security
 * headers on every response (lambdas/http/security-headers.ts), the error envelope for anything
 * thrown (unexpected faults become a logged, generic 500), and one log line per request
 * (docs/internals/operations.md "Logs": never a header, so never a key, token or signature).
 */
export function httpHandler(services: Services, implementation: RouteImplementation, routeId = 'unknown'): BoundRoute {
  const logRequest = (context: RequestContext, statusCode: number, injected = false) => {
    const fields = {
      request_id: context.requestId,
      route: routeId,
      status: statusCode,
      duration_ms: Math.round(performance.now() - context.startedMs),
      ...context.logFields,
    };
    // a 500 a test caused on purpose is what it expected
    if (statusCode >= 500 && !injected) services.log.error('request', fields);
    else if (statusCode >= 500) services.log.warn('request', fields);
    else services.log.info('request', fields);
  };
  const handler = middy<
    { event: APIGatewayProxyEvent; caller: Caller | undefined },
    APIGatewayProxyResult,
    Error,
    RequestContext
  >()
    .before((request) => {
      request.context.requestId = randomId('req');
      request.context.startedMs = performance.now();
      request.context.logFields = {};
    })
    .after((request) => {
      const response = request.response!;
      const headers = response.headers ?? {};
      request.response = {
        ...response,
        headers: {
          ...securityHeadersFor(String(headers['Content-Type'] ?? '')),
          ...headers,
          'Request-Id': request.context.requestId,
        },
      };
      logRequest(request.context, response.statusCode);
    })
    .onError((request) => {
      request.response = errorResult(
        request.error,
        request.context.requestId ?? randomId('req'),
        services.config.docsUrl,
        services.log,
      );
      logRequest(request.context, request.response.statusCode, request.error instanceof InjectedFault);
    })
    .handler(async ({ event, caller }, context) =>
      toProxyResult(await implementation(normaliseEvent(event, context.requestId), { caller, log: context.logFields })),
    ) as unknown as (
    invocation: { event: APIGatewayProxyEvent; caller: Caller | undefined },
    context: Context,
  ) => Promise<APIGatewayProxyResult>;
  return (event, context, caller) => handler({ event, caller }, context);
}
