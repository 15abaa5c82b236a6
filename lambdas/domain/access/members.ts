import { ApiError } from '../kernel/errors.js';
import { derivedBase58, ID_BODY_PATTERN } from '../kernel/ids.js';
import type { Services } from '../ports/services.js';
import { type Member, ROLES, type Role } from './member.js';

export const MEMBER_ID = new RegExp(`^usr_${ID_BODY_PATTERN}$`);

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** `ROLES` lists the roles strongest first, so a role holds every role listed after it. */
export function hasRole(member: Member, minimum: Role): boolean {
  return ROLES.indexOf(member.role) <= ROLES.indexOf(minimum);
}

/** Too low a role is a `403 scope_not_granted` (docs/internals/management.md). */
export function requireRole(member: Member, minimum: Role): void {
  if (!hasRole(member, minimum))
    throw new ApiError(
      'scope_not_granted',
      null,
      `This operation needs the ${minimum} role or higher; the caller is ${member.role}.`,
    );
}

/** A resource of another organisation is a `403`, not a `404` (docs/internals/management.md). */
export function requireSameOrganization(member: Member, orgId: string, what: string): void {
  if (member.orgId !== orgId)
    throw new ApiError('scope_not_granted', null, `This ${what} belongs to another organisation.`);
}

/**
 * The member id a token's `sub` names: our own ids (`usr_…`, the local issuer's) as they are; an
 * identity provider's subject (a Cognito user's UUID) mapped to a stable `usr_` id, so a
 * membership is found by key on every request.
 */
export function memberIdOfSubject(subject: string): string {
  return MEMBER_ID.test(subject) ? subject : `usr_${derivedBase58(`subject:${subject}`, 22)}`;
}

/**
 * The stable id of the person an organisation is seeded with for a role: the owner it is created
 * with when no identity provider names one, and (locally) the development admin and member.
 */
export function seedUserId(orgId: string, role: Role): string {
  return `usr_${derivedBase58(`${orgId}:${role}`, 22)}`;
}

/**
 * The role in effect is the membership's, read on every management request (one strongly
 * consistent read), never the token's claim: a removal or demotion holds at once, even for a
 * token issued before it. The first request of an invited person makes them `active`.
 */
async function currentMembership(services: Services, claimed: Member): Promise<Member> {
  const membership = await services.members.get(claimed.orgId, memberIdOfSubject(claimed.userId));
  if (!membership)
    throw new ApiError(
      'invalid_token',
      'Authorization',
      'The token names no member of this organisation (removed, or never added).',
    );
  if (membership.status === 'invited') await services.members.activate(membership);
  return { userId: membership.id, orgId: membership.org_id, role: membership.role };
}

/**
 * The management surface takes only dashboard tokens: an API key here is a `401`, like any other
 * bad token. A verified token is then only as good as its membership, read now.
 */
export async function authenticateMember(services: Services, token: string | null): Promise<Member> {
  if (!token) throw new ApiError('invalid_token', 'Authorization');
  if (token.startsWith('chk_'))
    throw new ApiError(
      'invalid_token',
      'Authorization',
      'API keys are not accepted on the management surface; send a dashboard token.',
    );
  return currentMembership(services, await services.tokens.verify(token));
}
