import type { Services } from '../domain/deps.js';
import { authenticateMember, requireRole, type Member, type Role } from '../domain/members.js';
import { httpHandler, type HttpHandler } from './handler.js';
import { runIdempotently } from './idempotency.js';
import { bearerToken, type HttpRequest } from './request.js';
import type { HttpResponse } from './response.js';

export type DashboardRouteImplementation = (request: HttpRequest, member: Member) => Promise<HttpResponse>;

export interface DashboardRouteOptions {
  minimumRole: Role;
  /**
   * Honour Idempotency-Key on POST (default). Off where the response carries a secret:
   * a stored response would keep the secret for 24 h, and secrets are never stored.
   */
  idempotent?: boolean;
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
    if (options.idempotent === false) return implementation(request, member);
    return runIdempotently(services, `${member.orgId}#mgmt`, request, (claimed) => implementation(claimed, member));
  });
}
