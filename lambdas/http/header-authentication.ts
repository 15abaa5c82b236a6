import { authenticateApiKey } from '../domain/access/api-keys.js';
import type { Member } from '../domain/access/member.js';
import { authenticateMember, requireRole } from '../domain/access/members.js';
import type { Principal } from '../domain/access/principal.js';
import type { Services } from '../domain/ports/services.js';
import type { RouteDefinition } from './routes/define.js';

/** Who a request's headers say it comes from: an API key's principal, or a dashboard member. */
export interface Caller {
  principal?: Principal;
  member?: Member;
}

/** The credential of an `Authorization: Bearer <token>` header; null when there is none. */
export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match ? match[1]! : null;
}

/**
 * The credential checks that need only the headers. Every route's pipeline starts with them
 * (implement.ts); the local API adapter runs them before it reads the body, so an unauthenticated
 * upload is refused without being buffered, and hands the caller to the route. Signed routes are
 * checked by the pipeline: their signature covers the body.
 */
export async function authenticateCaller(
  services: Services,
  route: RouteDefinition,
  authorization: string | undefined,
  /** gets `org_id` as soon as the credential is known, so a refusal after it is logged with it */
  logFields: { org_id?: string },
): Promise<Caller> {
  if (route.auth === 'api_key') {
    // an inference call's admission confirms the key itself (in its transaction), so its principal may come from the cache
    const principal = await authenticateApiKey(services, bearerToken(authorization), {
      provisional: route.slug !== undefined,
    });
    logFields.org_id = principal.orgId;
    return { principal };
  }
  if (route.auth === 'jwt') {
    const member = await authenticateMember(services, bearerToken(authorization));
    logFields.org_id = member.orgId;
    requireRole(member, route.minimumRole ?? 'owner');
    return { member };
  }
  return {};
}
