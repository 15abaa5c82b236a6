import type { APIGatewayProxyEvent } from 'aws-lambda';
import { authenticateApiKey } from '../domain/access/api-keys.js';
import type { Member } from '../domain/access/member.js';
import { authenticateMember, requireRole } from '../domain/access/members.js';
import type { Principal } from '../domain/access/principal.js';
import type { Services } from '../domain/ports/services.js';
import type { RouteDefinition } from './routes/define.js';

/** Who a request's headers say it comes from, established before its body is read. */
export interface HeaderCaller {
  principal?: Principal;
  member?: Member;
}

const callers = new WeakMap<APIGatewayProxyEvent, HeaderCaller>();

/** The credential of an `Authorization: Bearer <token>` header; null when there is none. */
export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match ? match[1]! : null;
}

/** A management route's caller: a verified dashboard JWT whose member holds the route's minimum role. */
export async function authenticateRouteMember(services: Services, route: RouteDefinition, authorization: string | undefined, logFields: { org_id?: string }): Promise<Member> {
  const member = await authenticateMember(services, bearerToken(authorization));
  logFields.org_id = member.orgId;
  requireRole(member, route.minimumRole ?? 'owner');
  return member;
}

/**
 * The credential checks that need only the headers, so an adapter can refuse an unauthenticated
 * upload without reading (or buffering) its body. Signed routes are checked by the pipeline:
 * their signature covers the body.
 */
export async function authenticateHeaders(
  services: Services,
  route: RouteDefinition,
  authorization: string | undefined,
  /** gets `org_id` as soon as the credential is known, so a refusal after it is logged with it */
  logFields: { org_id?: string },
): Promise<HeaderCaller> {
  if (route.auth === 'api_key') {
    // an inference call's admission transaction re-checks the key, so its principal may come from the cache
    const principal = await authenticateApiKey(services, bearerToken(authorization), { provisional: route.slug !== undefined });
    logFields.org_id = principal.orgId;
    return { principal };
  }
  if (route.auth === 'jwt') return { member: await authenticateRouteMember(services, route, authorization, logFields) };
  return {};
}

/** Hands the caller an adapter already authenticated to the pipeline of the same event, so the key is looked up once. */
export function rememberCaller(event: APIGatewayProxyEvent, caller: HeaderCaller): void {
  callers.set(event, caller);
}

export function rememberedCaller(event: APIGatewayProxyEvent): HeaderCaller | undefined {
  return callers.get(event);
}
