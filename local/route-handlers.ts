import type { Services } from '../lambdas/domain/ports/services.js';
import type { BoundRoute } from '../lambdas/http/handler.js';
import type { RouteHandler } from '../lambdas/http/route-handler.js';
import type { RouteDefinition } from '../lambdas/http/routes/define.js';

/** A route's handler, loaded the way Lambda loads its entry: the route module the definition names, then its `handler` export. */
export async function loadRouteHandler(route: RouteDefinition): Promise<RouteHandler> {
  const module = (await import(/* @vite-ignore */ route.module)) as { handler?: RouteHandler };
  const { handler } = module;
  if (!handler || typeof handler.forServices !== 'function')
    throw new Error(`${route.module} exports no route handler`);
  if (!handler.routes.some((served) => served.id === route.id))
    throw new Error(`${route.module} does not serve route ${route.id}`);
  return handler;
}

/** Told of every error answer a route gives, with its code: tests check each against the route's declared codes. */
export type ErrorObserver = (route: RouteDefinition, code: string) => void;

function errorCodeOf(body: string): string | null {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

function observed(route: RouteDefinition, handler: BoundRoute, observer: ErrorObserver): BoundRoute {
  return async (event, context, caller) => {
    const result = await handler(event, context, caller);
    if (result.statusCode >= 400 && !result.isBase64Encoded) {
      const code = errorCodeOf(result.body);
      if (code) observer(route, code);
    }
    return result;
  };
}

/** Every route bound to the local runtime's services; each route module is bound once, whatever the number of routes it serves. */
export async function bindRouteHandlers(
  services: Services,
  routes: readonly RouteDefinition[],
  observer?: ErrorObserver,
): Promise<Array<{ route: RouteDefinition; handler: BoundRoute }>> {
  const bound = new Map<string, BoundRoute>();
  const result: Array<{ route: RouteDefinition; handler: BoundRoute }> = [];
  for (const route of routes) {
    if (!bound.has(route.module)) bound.set(route.module, (await loadRouteHandler(route)).forServices(services));
    const handler = bound.get(route.module)!;
    result.push({ route, handler: observer ? observed(route, handler, observer) : handler });
  }
  return result;
}
