import type { MemberRecord, Role } from '../lambdas/domain/access/member.js';
import { seedUserId } from '../lambdas/domain/access/members.js';
import { epochSeconds } from '../lambdas/domain/kernel/clock.js';
import type { Services } from '../lambdas/domain/ports/services.js';

/**
 * The people behind the tokens `npm start` prints (`owner_jwt`, `admin_jwt`, `member_jwt`) and the
 * tests mint: one active member per role, with the ids the local issuer signs for by default. The
 * owner is the organisation's own founder; an organisation kept from before memberships existed
 * gets it too. Adding one that exists changes nothing.
 */
export async function addDevelopmentMembers(services: Services, orgId: string): Promise<void> {
  const created = epochSeconds(services.clock);
  const member = (role: Role): MemberRecord => ({
    id: seedUserId(orgId, role),
    org_id: orgId,
    email: `${role}@example.com`,
    role,
    status: 'active',
    created,
  });
  for (const role of ['owner', 'admin', 'member'] as const) {
    if (!(await services.members.get(orgId, seedUserId(orgId, role)))) await services.members.add(member(role));
  }
}
