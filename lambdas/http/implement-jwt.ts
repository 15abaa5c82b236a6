import { implement } from './implement.js';
import type { ImplementOptions, RouteHandler, RouteImplementation } from './route-handler.js';
import type { RouteDefinition } from './routes/define.js';

/**
 * `implement` for the routes that verify dashboard tokens (JWT auth, or the `jwt_issuer` setting):
 * the verifier comes from the environment, and only these handlers' bundles carry `jose`.
 */
export function implementJwt<R extends RouteDefinition>(
  routes: R | readonly R[],
  implementation: RouteImplementation<NoInfer<R>>,
  options: ImplementOptions = {},
): RouteHandler {
  return implement(routes, implementation, {
    ...options,
    tokenVerifier: async () => (await import('../composition/token-verifier.js')).tokenVerifierFromEnvironment,
  });
}
