import * as z from 'zod/mini';
import { defineRoute, JSON_BODY_BYTES, type MiddlewareName, type RouteDefinition } from '../define.js';

// session ids carry their own signed claims, so they run to a few hundred characters
const SessionParams = z.object({ session: z.string().check(z.minLength(1), z.maxLength(2048)) });

/** The answer of a local page. */
export const HTML_PAGE = { description: 'an HTML page', contentType: 'text/html' } as const;

/** The local payment provider's pages: the local runtime, and AWS only with the `local_payments` setting. */
export function localPage<
  const R extends Pick<RouteDefinition, 'module' | 'id' | 'method' | 'path' | 'summary' | 'responses' | 'access'>,
>(
  route: R,
): R & {
  auth: 'none';
  middleware: readonly MiddlewareName[];
  params: typeof SessionParams;
  tag: string;
  errors: RouteDefinition['errors'];
  timeoutSeconds: number;
  maxBodyBytes: number;
} {
  return defineRoute({
    ...route,
    tag: 'Internal',
    auth: 'none',
    middleware: [],
    params: SessionParams,
    notFound: 'resource_not_found',
    errors: ['resource_not_found'],
    settings: ['payments', 'local_payments'],
    localOnly: true,
    timeoutSeconds: 10,
    maxBodyBytes: route.method === 'GET' ? 0 : JSON_BODY_BYTES,
  });
}
