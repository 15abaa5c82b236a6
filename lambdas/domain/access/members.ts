import type { Services } from '../ports/services.js';
import { ApiError } from '../kernel/errors.js';
import { ROLES, type Member, type Role } from './member.js';

const RANK: Record<Role, number> = { owner: 3, admin: 2, member: 1 };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function hasRole(member: Member, minimum: Role): boolean {
  return RANK[member.role] >= RANK[minimum];
}

/** Too low a role is a `403 scope_not_granted` (docs/management.md). */
export function requireRole(member: Member, minimum: Role): void {
  if (!hasRole(member, minimum)) throw new ApiError('scope_not_granted', null, `This operation needs the ${minimum} role or higher; the token carries ${member.role}.`);
}

/** A resource of another organisation is a `403`, not a `404` (docs/management.md). */
export function requireSameOrganization(member: Member, orgId: string, what: string): void {
  if (member.orgId !== orgId) throw new ApiError('scope_not_granted', null, `This ${what} belongs to another organisation.`);
}

/** The management surface takes only dashboard tokens: an API key here is a `401`, like any other bad token. */
export async function authenticateMember(services: Services, token: string | null): Promise<Member> {
  if (!token) throw new ApiError('invalid_token', 'Authorization');
  if (token.startsWith('chk_')) throw new ApiError('invalid_token', 'Authorization', 'API keys are not accepted on the management surface; send a dashboard token.');
  return services.tokens.verify(token);
}
