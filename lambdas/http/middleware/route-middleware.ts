import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { IdempotencyClaim } from '../../domain/access/idempotency.js';
import type { Member } from '../../domain/access/member.js';
import type { Principal } from '../../domain/access/principal.js';
import type { Services } from '../../domain/ports/services.js';
import type { Caller } from '../header-authentication.js';
import type { HttpRequest, RequestLogFields } from '../request.js';
import type { HttpResponse } from '../response.js';
import type { RouteDefinition } from '../routes/define.js';

/** What a route's middleware shares during one request: state passes here, never on the request. */
export interface RouteContext extends Context {
  services: Services;
  route: RouteDefinition;
  log: RequestLogFields;
  /** the caller the local API adapter already authenticated, if it did */
  knownCaller: Caller | undefined;
  principal?: Principal;
  member?: Member;
  /** headers a middleware adds to every answer, an error's included (the rate limit's) */
  responseHeaders: Record<string, string>;
  /** the Idempotency-Key this request holds until its answer is stored */
  claim?: IdempotencyClaim;
}

/** One step of a route's pipeline: middy's before / after / onError around the route's own request. */
export type RouteMiddleware = MiddlewareObj<HttpRequest, HttpResponse, Error, RouteContext>;

/** An answer given before the route runs (a replay): it carries the headers the steps before it set. */
export function earlyAnswer(context: RouteContext, response: HttpResponse): HttpResponse {
  return { ...response, headers: { ...context.responseHeaders, ...response.headers } };
}
