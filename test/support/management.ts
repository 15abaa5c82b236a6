import type { Role } from '../../lambdas/domain/access/member.js';
import type { SeededOrganization } from '../../lambdas/domain/access/organizations.js';
import { type ApiResponse, call } from './http.js';
import type { TestService } from './service.js';

/** A fresh dashboard token from the runtime's own issuer, dated by the test clock. */
export function tokenFor(svc: TestService, role: Role, org: SeededOrganization = svc.org): Promise<string> {
  return svc.issuer.token(org.organization.id, role);
}

/** A management call as `role` of `org` (default: the main organisation). */
export async function asRole(
  svc: TestService,
  role: Role,
  method: string,
  path: string,
  options: { json?: unknown; org?: SeededOrganization; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const key = await tokenFor(svc, role, options.org);
  return call(svc.baseUrl, method, path, {
    key,
    ...(options.json !== undefined ? { json: options.json } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

/** Every entry of a paginated management list, following `starting_after`. */
export async function allPages(svc: TestService, role: Role, path: string): Promise<any[]> {
  const items: any[] = [];
  let after: string | undefined;
  for (;;) {
    const separator = path.includes('?') ? '&' : '?';
    const page = await asRole(
      svc,
      role,
      'GET',
      `${path}${separator}limit=100${after ? `&starting_after=${after}` : ''}`,
    );
    if (page.status !== 200) throw new Error(`${path}: ${page.status} ${JSON.stringify(page.body)}`);
    items.push(...page.body.data);
    if (!page.body.has_more) return items;
    after = page.body.data[page.body.data.length - 1].id;
  }
}
