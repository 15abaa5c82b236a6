import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import type { MembershipRefusal } from '../ports/access.js';
import type { Services } from '../ports/services.js';
import type { Member, MemberRecord, MemberStatus, Role } from './member.js';
import { hasRole, MEMBER_ID, memberIdOfSubject, requireSameOrganization } from './members.js';

/** a role change or removal that loses a race with another is read again, this many times at most */
const MAX_ATTEMPTS = 5;

/** The member record as presented (docs/internals/management.md, "Members"). */
export interface PublicMember {
  id: string;
  object: 'member';
  email: string | null;
  role: Role;
  status: MemberStatus;
  created: number;
}

export function presentMember(member: MemberRecord): PublicMember {
  return {
    id: member.id,
    object: 'member',
    email: member.email,
    role: member.role,
    status: member.status,
    created: member.created,
  };
}

/** Emails compare case-insensitively (Cognito signs in case-insensitively too). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function listMembers(services: Services, caller: Member): Promise<PublicMember[]> {
  const members = await services.members.list(caller.orgId);
  return members.sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1)).map(presentMember);
}

function requireOwnerFor(caller: Member, what: string, param: string): void {
  if (!hasRole(caller, 'owner'))
    throw new ApiError('scope_not_granted', param, `Only an owner may ${what}; the caller is ${caller.role}.`);
}

function alreadyMember(email: string): ApiError {
  return new ApiError('member_already_exists', 'email', `${email} is already a member of an organisation.`);
}

/** Owners and admins invite; only an owner may make owners. Locally the answer carries a sign-in link. */
export async function inviteMember(
  services: Services,
  caller: Member,
  input: { email: string; role: Role },
): Promise<PublicMember & { invite_url?: string }> {
  if (input.role === 'owner') requireOwnerFor(caller, 'make owners', 'role');
  const email = normalizeEmail(input.email);
  // checked before the identity provider is asked, so nobody is sent an invitation for nothing
  if ((await services.members.list(caller.orgId)).some((member) => member.email === email)) throw alreadyMember(email);
  const { memberId, inviteUrl } = await services.identity.invite({ orgId: caller.orgId, email, role: input.role });
  const added = await services.members.add({
    id: memberId,
    org_id: caller.orgId,
    email,
    role: input.role,
    status: 'invited',
    created: epochSeconds(services.clock),
  });
  if (typeof added === 'string') throw alreadyMember(email);
  return { ...presentMember(added), ...(inviteUrl ? { invite_url: inviteUrl } : {}) };
}

/** Absent → 404; another organisation's → 403 (the management surface's rule). */
async function findMember(services: Services, caller: Member, memberId: string): Promise<MemberRecord> {
  const notFound = () => new ApiError('member_not_found', 'id', `No such member: ${memberId}.`);
  if (!MEMBER_ID.test(memberId)) throw notFound();
  const member = await services.members.get(caller.orgId, memberId);
  if (member) return member;
  const orgId = await services.members.organizationOf(memberId);
  if (orgId) requireSameOrganization(caller, orgId, 'member');
  throw notFound();
}

function refused(refusal: MembershipRefusal, param: string): ApiError | null {
  if (refusal === 'last_owner') return new ApiError('last_owner', param);
  return refusal === 'changed' ? null : new ApiError('member_already_exists', param);
}

/**
 * Owners and admins change roles; only an owner may make an owner or change an owner's role.
 * Demoting the last owner is `409 last_owner`, checked in the same transaction as the change.
 */
export async function changeMemberRole(
  services: Services,
  caller: Member,
  memberId: string,
  role: Role,
): Promise<PublicMember> {
  for (let attempt = 1; ; attempt += 1) {
    const member = await findMember(services, caller, memberId);
    if (role === 'owner') requireOwnerFor(caller, 'make owners', 'role');
    if (member.role === 'owner') requireOwnerFor(caller, "change an owner's role", 'id');
    if (member.role === role) return presentMember(member);
    const outcome = await services.members.changeRole(member, role);
    if (typeof outcome !== 'string') return presentMember(outcome);
    const error = refused(outcome, 'role');
    if (error || attempt >= MAX_ATTEMPTS)
      throw error ?? new ApiError('service_unavailable', null, 'The member changed concurrently; retry.');
  }
}

/** Owners and admins remove members; only an owner may remove an owner, and never the last one. */
export async function removeMember(
  services: Services,
  caller: Member,
  memberId: string,
): Promise<{ id: string; object: 'member'; deleted: true }> {
  for (let attempt = 1; ; attempt += 1) {
    const member = await findMember(services, caller, memberId);
    if (member.role === 'owner') requireOwnerFor(caller, 'remove an owner', 'id');
    const outcome = await services.members.remove(member);
    if (outcome === true) return { id: member.id, object: 'member', deleted: true };
    const error = refused(outcome, 'id');
    if (error || attempt >= MAX_ATTEMPTS)
      throw error ?? new ApiError('service_unavailable', null, 'The member changed concurrently; retry.');
  }
}

/**
 * What a sign-in token says about a person (Cognito's pre-token-generation trigger): the
 * organisation and role of their membership now; null when they have none (a token without
 * `org_id` is refused by the management surface). Signing in accepts an invitation.
 */
export async function membershipClaims(
  services: Services,
  subject: string,
): Promise<{ org_id: string; role: Role } | null> {
  const memberId = memberIdOfSubject(subject);
  const orgId = await services.members.organizationOf(memberId);
  const member = orgId ? await services.members.get(orgId, memberId) : null;
  if (!member) return null;
  if (member.status === 'invited') await services.members.activate(member);
  return { org_id: member.org_id, role: member.role };
}
