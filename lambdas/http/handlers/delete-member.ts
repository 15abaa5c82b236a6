import { removeMember } from '../../domain/access/memberships.js';
import { implementJwt } from '../implement-jwt.js';
import { deleteMember } from '../routes/members.js';

/** `DELETE /mgmt/v1/members/{id}`: the member's tokens stop working on their very next request. */
export const handler = implementJwt(deleteMember, async ({ services, member, params }) => ({ status: 200, body: await removeMember(services, member, params.id) }));
