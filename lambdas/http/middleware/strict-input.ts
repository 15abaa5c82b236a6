import { ApiError } from '../../domain/kernel/errors.js';
import type { HttpRequest } from '../request.js';
import type { RouteMiddleware } from './route-middleware.js';

/** The first field of a JSON object body, whatever Content-Type it came with (`curl -d` says form-urlencoded). */
function firstJsonField(request: HttpRequest): string | undefined {
  if (request.body.length === 0) return undefined;
  try {
    const value: unknown = JSON.parse(request.body.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value)[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * "An unknown parameter is rejected, never ignored" on the API surfaces, for what a route does not
 * declare at all: any query parameter when it has no `query` schema, any field of a JSON body when it
 * has no `body` schema (an empty body or `{}` is fine). Routes that parse their own input (inference calls: `wait`,
 * and the body, inference/call.ts) do not declare it. docs/internals/architecture.md, "Undeclared parameters".
 */
export function strictInput(): RouteMiddleware {
  return {
    before: ({ event: request, context: { route } }) => {
      const query = route.query ? undefined : Object.keys(request.query)[0];
      if (query !== undefined)
        throw new ApiError('parameter_unknown', query, `Unknown query parameter ${query}: this route takes none.`);
      const field = route.body ? undefined : firstJsonField(request);
      if (field !== undefined)
        throw new ApiError('parameter_unknown', field, `Unknown parameter ${field}: this route takes no body.`);
    },
  };
}
