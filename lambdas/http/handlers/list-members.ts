import { listMembers as membersOf } from '../../domain/access/memberships.js';
import { implementJwt } from '../implement-jwt.js';
import { listMembers } from '../routes/members.js';

/** `GET /mgmt/v1/members`: every member and their role, as read now. */
export const handler = implementJwt(listMembers, async ({ services, member }) => ({
  status: 200,
  body: { object: 'list' as const, data: await membersOf(services, member), has_more: false },
}));
