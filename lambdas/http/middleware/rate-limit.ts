import type { Principal } from '../../domain/access/principal.js';
import { type RateLimitBucket, rateLimitError, rateWindowOf } from '../../domain/access/rate-limits.js';
import { epochSeconds } from '../../domain/kernel/clock.js';
import { withHeaders } from '../response.js';
import { rateLimitHeaders } from '../retry-headers.js';
import type { RouteMiddleware } from './route-middleware.js';

/**
 * The plan's rate limit in the window `bucketOf` names: its headers on every answer, a refusal
 * (429) before the route runs, with no side effect.
 */
export function rateLimit(bucketOf: (principal: Principal) => RateLimitBucket): RouteMiddleware {
  return {
    before: async ({ context }) => {
      const { services } = context;
      const principal = context.principal!;
      const plan = await services.plans.planOf(principal.orgId);
      const bucket = bucketOf(principal);
      const decision = await services.rateLimiter.check(services.clock, {
        orgId: principal.orgId,
        livemode: principal.livemode,
        plan,
        bucket,
      });
      const now = epochSeconds(services.clock);
      Object.assign(context.responseHeaders, rateLimitHeaders(rateWindowOf(decision, now)));
      if (!decision.allowed) throw rateLimitError(decision, bucket, plan, now);
    },
    after: (request) => {
      const response = request.response!;
      request.response = { ...response, headers: { ...request.context.responseHeaders, ...response.headers } };
    },
    onError: (request) => {
      if (Object.keys(request.context.responseHeaders).length > 0)
        request.error = withHeaders(request.error, request.context.responseHeaders) as Error;
    },
  };
}
