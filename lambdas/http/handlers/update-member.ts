import { changeMemberRole } from '../../domain/access/memberships.js';
import { implementJwt } from '../implement-jwt.js';
import { updateMember } from '../routes/members.js';

/** `POST /mgmt/v1/members/{id}`: the new role holds from the member's very next request. */
export const handler = implementJwt(updateMember, async ({ services, member, params, body }) => ({
  status: 200,
  body: await changeMemberRole(services, member, params.id, body.role),
}));
