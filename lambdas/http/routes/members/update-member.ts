import { changeMemberRole } from '../../../domain/access/memberships.js';
import { MemberIdParams, MemberSchema, UpdateMemberSchema } from '../../../schemas/members.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'update-member',
  method: 'POST',
  path: '/mgmt/v1/members/{id}',
  minimumRole: 'admin',
  summary: 'Change a member’s role; only an owner may make or change an owner, and the last owner stays',
  params: MemberIdParams,
  notFound: 'member_not_found',
  body: UpdateMemberSchema,
  responses: { 200: { description: 'the member with its new role', schema: MemberSchema } },
  errors: ['member_not_found', 'last_owner'],
  access: { table: 'readwrite' },
});

/** `POST /mgmt/v1/members/{id}`: the new role holds from the member's very next request. */
export const handler = implementJwt(route, async ({ services, member, params, body }) => ({
  status: 200,
  body: await changeMemberRole(services, member, params.id, body.role),
}));
