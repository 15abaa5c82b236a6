import type { Role } from '../../domain/access/member.js';
import { defineRoute, JSON_BODY_BYTES, type RouteDefinition } from './define.js';

// its own module, so the webhook routes share it without bundling the management routes and their schemas
const TAG = 'Management';

/** What every management route shares: JWT auth, its tag, a 10 s timeout, the role in its summary. */
export function mgmt<const R extends Omit<RouteDefinition, 'auth' | 'tag' | 'timeoutSeconds' | 'maxBodyBytes'> & { minimumRole: Role; timeoutSeconds?: number }>(
  route: R,
): R & { auth: 'jwt'; tag: string; timeoutSeconds: number; maxBodyBytes: number } {
  return defineRoute({
    ...route,
    auth: 'jwt',
    tag: TAG,
    timeoutSeconds: route.timeoutSeconds ?? 10,
    maxBodyBytes: route.method === 'GET' ? 0 : JSON_BODY_BYTES,
    summary: `${route.summary} (role: ${route.minimumRole} or higher)`,
  });
}
