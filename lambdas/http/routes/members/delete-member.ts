import { removeMember } from '../../../domain/access/memberships.js';
import { DeletedMemberSchema, MemberIdParams } from '../../../schemas/members.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'delete-member',
  method: 'DELETE',
  path: '/mgmt/v1/members/{id}',
  minimumRole: 'admin',
  summary: 'Remove a member: their tokens stop working at once; only an owner may remove an owner, never the last',
  params: MemberIdParams,
  notFound: 'member_not_found',
  responses: { 200: { description: 'removed', schema: DeletedMemberSchema } },
  errors: ['member_not_found', 'last_owner'],
  access: { table: 'readwrite' },
});

/** `DELETE /mgmt/v1/members/{id}`: the member's tokens stop working on their very next request. */
export const handler = implementJwt(route, async ({ services, member, params }) => ({
  status: 200,
  body: await removeMember(services, member, params.id),
}));
