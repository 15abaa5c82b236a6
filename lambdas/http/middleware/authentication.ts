import { authenticateCaller } from '../header-authentication.js';
import { requireInferenceSignature } from '../signature-check.js';
import type { RouteMiddleware } from './route-middleware.js';

/**
 * The caller, as the route's `auth` says: an API key or a dashboard token (the local API adapter
 * may have checked them already, before it read the body), or the inference plane's signature over
 * the raw body. A Stripe-signed route is verified by its payment provider, in its handler.
 */
export function authentication(): RouteMiddleware {
  return {
    before: async ({ event: request, context }) => {
      const { route, services, log } = context;
      if (route.auth === 'api_key' || route.auth === 'jwt') {
        const caller =
          context.knownCaller ?? (await authenticateCaller(services, route, request.headers.authorization, log));
        log.org_id = (caller.principal ?? caller.member)!.orgId;
        if (caller.principal) context.principal = caller.principal;
        if (caller.member) context.member = caller.member;
      }
      if (route.signatureHeader === 'X-Inference-Signature') requireInferenceSignature(services, request);
    },
  };
}
