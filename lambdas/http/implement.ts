import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Services } from '../domain/ports/services.js';
import type { BoundRoute, HttpHandler } from './handler.js';
import { type ImplementOptions, needsTokens, type RouteHandler, type RouteImplementation } from './route-handler.js';
import type { RouteDefinition } from './routes/define.js';

/**
 * A route module's `handler` export. Nothing runs when the module is imported: the request pipeline
 * (route-pipeline.ts: authentication, rate limit, Idempotency-Key, validation, the error envelope)
 * and, on Lambda, the services built from the stack's environment are loaded on the first request,
 * so CDK, the local runtime and the OpenAPI generator read definitions without loading them. The
 * local runtime binds its own services with `forServices`.
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
  let pipeline: Promise<typeof import('./route-pipeline.js')> | undefined;
  const loadPipeline = () => {
    pipeline ??= import('./route-pipeline.js');
    return pipeline;
  };
  const forServices = (services: Services): BoundRoute => {
    let bound: BoundRoute | undefined;
    return async (event, context, caller) => {
      bound ??= (await loadPipeline()).bindRoutes(services, list, implementation);
      return bound(event, context, caller);
    };
  };
  let lambda: Promise<HttpHandler> | undefined;
  const handler = async (event: APIGatewayProxyEvent, context: Context) => {
    lambda ??= loadPipeline().then((loaded) => loaded.lambdaHandler(list, implementation, options));
    return (await lambda)(event, context);
  };
  return Object.assign(handler, { routes: list, forServices });
}
