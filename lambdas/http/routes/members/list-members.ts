import { listMembers as membersOf } from '../../../domain/access/memberships.js';
import { listOf } from '../../../domain/kernel/page.js';
import { MemberListSchema } from '../../../schemas/members.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'list-members',
  method: 'GET',
  path: '/mgmt/v1/members',
  minimumRole: 'member',
  summary: 'Every member of the organisation and their role, newest first',
  responses: { 200: { description: 'every member', schema: MemberListSchema } },
  errors: [],
  access: { table: 'read' },
});

/** `GET /mgmt/v1/members`: every member and their role, as read now. */
export const handler = implementJwt(route, async ({ services, member }) => ({
  status: 200,
  body: listOf(await membersOf(services, member)),
}));
