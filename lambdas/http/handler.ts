import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Services } from '../domain/ports/services.js';
import { randomId } from '../domain/kernel/ids.js';
import { errorResult } from './middleware/error-envelope.js';
import { normaliseEvent, type HttpRequest } from './request.js';
import { toProxyResult, type HttpResponse } from './response.js';

export type HttpHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type RouteImplementation = (request: HttpRequest) => Promise<HttpResponse>;

type RequestContext = Context & { requestId: string };

/**
 * Wraps a route implementation with what every route shares: a `req_` id on every
 * response, and the error envelope for anything thrown (unexpected faults become a
 * logged, generic 500).
 */
export function httpHandler(services: Services, implementation: RouteImplementation): HttpHandler {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RequestContext>()
    .before((request) => {
      request.context.requestId = randomId('req');
    })
    .after((request) => {
      const response = request.response!;
      request.response = { ...response, headers: { ...response.headers, 'Request-Id': request.context.requestId } };
    })
    .onError((request) => {
      request.response = errorResult(request.error, request.context.requestId ?? randomId('req'), services.config.docsUrl, services.log);
    })
    .handler(async (event, context) => toProxyResult(await implementation(normaliseEvent(event, context.requestId)))) as unknown as HttpHandler;
}
