import { claimIdempotencyKey, finishClaim, idempotencyScope, storedRefusal } from '../../domain/access/idempotency.js';
import { replayedAfterRedaction } from '../../domain/erasure/redaction.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { modeOf } from '../../domain/kernel/mode.js';
import { fromStored, idempotencyKeyOf, toStored } from '../idempotency.js';
import type { HttpResponse } from '../response.js';
import { earlyAnswer, type RouteMiddleware } from './route-middleware.js';

/**
 * Runs a POST at most once per Idempotency-Key within the caller's scope. The first request's
 * final answer (2xx or 4xx) is stored (in `storedForm`, when it must differ from what the first
 * caller saw: secrets are never stored) and replayed; a 5xx or 429 frees the key for a retry.
 */
export function idempotency(
  storedForm: (response: HttpResponse) => HttpResponse = (response) => response,
): RouteMiddleware {
  return {
    before: async ({ event: request, context }) => {
      const { services, principal, member } = context;
      const idempotency = await idempotencyKeyOf(request, { scenarioIgnored: principal?.livemode ?? false });
      if (!idempotency) return undefined;
      const scope = principal
        ? idempotencyScope(principal.orgId, modeOf(principal.livemode))
        : idempotencyScope(member!.orgId, 'mgmt');
      const outcome = await claimIdempotencyKey(services, scope, idempotency.key, idempotency.fingerprint);
      if (outcome.kind === 'replay')
        return earlyAnswer(
          context,
          fromStored(
            { ...outcome.response, body: await replayedAfterRedaction(services, outcome.response.body) },
            request.requestId,
          ),
        );
      context.claim = outcome.claim;
      return undefined;
    },
    after: async ({ response, context }) => {
      const { claim } = context;
      if (!claim) return;
      context.claim = undefined;
      await finishClaim(context.services, claim, toStored(storedForm(response!)));
    },
    onError: async ({ error, event: request, context }) => {
      const { services, claim } = context;
      if (!claim) return;
      await finishClaim(
        services,
        claim,
        error instanceof ApiError ? storedRefusal(error, request.requestId, services.config.docsUrl) : null,
      );
    },
  };
}
