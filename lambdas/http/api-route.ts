import { authenticateApiKey } from '../domain/access/api-keys.js';
import { epochSeconds } from '../domain/kernel/clock.js';
import type { Services } from '../domain/ports/services.js';
import { ApiError } from '../domain/kernel/errors.js';
import type { Principal } from '../domain/access/principal.js';
import { READ_BUCKET, rateLimitHeaders, type RateLimitBucket } from '../domain/access/rate-limits.js';
import { httpHandler, type HttpHandler } from './handler.js';
import { runIdempotently } from './idempotency.js';
import { bearerToken, type HttpRequest } from './request.js';
import type { HttpResponse } from './response.js';

export type ApiRouteImplementation = (request: HttpRequest, principal: Principal) => Promise<HttpResponse>;

export interface ApiRouteOptions {
  /** the rate-limit counter this route draws on; inference routes use their slug */
  bucket?: RateLimitBucket;
}

function withHeaders(error: unknown, headers: Record<string, string>): unknown {
  return error instanceof ApiError ? new ApiError(error.code, error.param, error.message, { ...headers, ...error.headers }) : error;
}

/**
 * A `/v1` route: API-key authentication, the plan's rate limit (its headers on every answer,
 * `429` with no side effect on a breach), Idempotency-Key handling on POST, then the route.
 */
export function apiRoute(services: Services, implementation: ApiRouteImplementation, options: ApiRouteOptions = {}): HttpHandler {
  const bucket = options.bucket ?? READ_BUCKET;
  return httpHandler(services, async (request) => {
    const principal = await authenticateApiKey(services, bearerToken(request));
    const plan = await services.plans.planOf(principal.orgId);
    const decision = await services.rateLimiter.check(services.clock, { orgId: principal.orgId, livemode: principal.livemode, plan, bucket });
    const headers = rateLimitHeaders(decision, epochSeconds(services.clock));
    if (!decision.allowed) throw new ApiError('rate_limit_exceeded', null, `Rate limit of ${decision.limit} calls a minute for ${bucket} exceeded on the ${plan} plan.`, headers);
    try {
      const scope = `${principal.orgId}#${principal.livemode ? 'live' : 'test'}`;
      const response = await runIdempotently(services, scope, request, (claimed) => implementation(claimed, principal));
      return { ...response, headers: { ...headers, ...response.headers } };
    } catch (error) {
      throw withHeaders(error, headers);
    }
  });
}
