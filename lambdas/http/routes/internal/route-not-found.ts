import { ApiError } from '../../../domain/kernel/errors.js';
import { implement } from '../../implement.js';
import { defineRoute } from '../define.js';

/** The largest body API Gateway passes on: an unknown route takes whatever reaches it and answers 404. */
const GATEWAY_PAYLOAD_BYTES = 10 * 1024 * 1024;

const catchAll = {
  module: import.meta.url,
  method: 'ANY',
  summary: 'Any path no other route serves: the service answers 404 route_not_found itself',
  tag: 'Internal',
  auth: 'none',
  middleware: [],
  responses: {},
  errors: ['route_not_found'],
  access: { table: 'none' },
  timeoutSeconds: 10,
  maxBodyBytes: GATEWAY_PAYLOAD_BYTES,
} as const;

/**
 * The catch-all routes: the API's root and every path under it that no other route's resource
 * matches reach this function, so an unknown route gets the service's own `404 route_not_found`
 * with a `req_` id and its `Request-Id` header, like every answer of the service, rather than an
 * answer API Gateway makes (docs/internals/deploy.md, "Errors API Gateway answers itself"). They are no part
 * of the documented API.
 */
export const routes = [
  defineRoute({ ...catchAll, id: 'route-not-found-root', path: '/' }),
  defineRoute({ ...catchAll, id: 'route-not-found', path: '/{proxy+}' }),
];

/** What an unknown route answers, on AWS (this function) and under `npm start` (its API adapter). */
export function routeNotFound(method: string, path: string): ApiError {
  return new ApiError('route_not_found', null, `No route ${method} ${path}.`);
}

/** `ANY /` and `ANY /{proxy+}`: always `404 route_not_found`, naming the method and path asked for. */
export const handler = implement(routes, async ({ request }) => {
  throw routeNotFound(request.method, request.path);
});
