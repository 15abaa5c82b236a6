import type { Services } from '../domain/deps.js';
import { authenticateMember, requireRole, type Member, type Role } from '../domain/members.js';
import { httpHandler, type HttpHandler } from './handler.js';
import { bearerToken, type HttpRequest } from './request.js';
import type { HttpResponse } from './response.js';

export type DashboardRouteImplementation = (request: HttpRequest, member: Member) => Promise<HttpResponse>;

/** A `/mgmt/v1` route: a verified dashboard JWT (never an API key), a role at least `minimumRole`, then the route's own work. */
export function dashboardRoute(services: Services, options: { minimumRole: Role }, implementation: DashboardRouteImplementation): HttpHandler {
  return httpHandler(services, async (request) => {
    const member = await authenticateMember(services, bearerToken(request));
    requireRole(member, options.minimumRole);
    return implementation(request, member);
  });
}
