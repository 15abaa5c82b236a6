import type { Services } from '../domain/ports/services.js';
import { authenticateMember, requireRole } from '../domain/access/members.js';
import { type Member, type Role } from '../domain/access/member.js';
import { httpHandler, type HttpHandler } from './handler.js';
import { runIdempotently } from './idempotency.js';
import { bearerToken, type HttpRequest } from './request.js';
import type { HttpResponse } from './response.js';

export type DashboardRouteImplementation = (request: HttpRequest, member: Member) => Promise<HttpResponse>;

export interface DashboardRouteOptions {
  minimumRole: Role;
  /**
   * How Idempotency-Key applies on POST: `store` (default) keeps the answer for replay;
   * `without-secret` keeps it minus its `secret`, which is shown once and never stored, so a
   * replay names the same key without revealing the secret again.
   */
  idempotency?: 'store' | 'without-secret';
}

function withoutSecret(response: HttpResponse): HttpResponse {
  if (typeof response.body !== 'object' || response.body === null || !('secret' in response.body)) return response;
  const { secret: _secret, ...body } = response.body as Record<string, unknown>;
  return { ...response, body };
}

/**
 * A `/mgmt/v1` route: a verified dashboard JWT (never an API key), a role at least
 * `minimumRole`, Idempotency-Key handling on POST (scoped to the organisation's management
 * surface), then the route's own work.
 */
export function dashboardRoute(services: Services, options: DashboardRouteOptions, implementation: DashboardRouteImplementation): HttpHandler {
  return httpHandler(services, async (request) => {
    const member = await authenticateMember(services, bearerToken(request));
    requireRole(member, options.minimumRole);
    const storedForm = options.idempotency === 'without-secret' ? withoutSecret : undefined;
    return runIdempotently(services, `${member.orgId}#mgmt`, request, (claimed) => implementation(claimed, member), storedForm);
  });
}
