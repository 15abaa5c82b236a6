import { withIdentityProvider } from '../../composition/identity-provider.js';
import {
  changeMemberRole,
  inviteMember as invite,
  listMembers as membersOf,
  removeMember,
} from '../../domain/access/memberships.js';
import { implementJwt } from '../implement-jwt.js';
import * as members from '../routes/members.js';

// Members of the organisation (management surface): list, invite, change role, remove.

/** `GET /mgmt/v1/members`: every member and their role, as read now. */
export const listMembers = implementJwt(members.listMembers, async ({ services, member }) => ({
  status: 200,
  body: { object: 'list' as const, data: await membersOf(services, member), has_more: false },
}));

/** `POST /mgmt/v1/members`: the identity provider registers the person (Cognito emails them; locally the answer carries a sign-in link). */
export const inviteMember = implementJwt(
  members.inviteMember,
  async ({ services, member, body }) => ({ status: 201, body: await invite(services, member, body) }),
  {
    extend: withIdentityProvider,
  },
);

/** `POST /mgmt/v1/members/{id}`: the new role holds from the member's very next request. */
export const updateMember = implementJwt(members.updateMember, async ({ services, member, params, body }) => ({
  status: 200,
  body: await changeMemberRole(services, member, params.id, body.role),
}));

/** `DELETE /mgmt/v1/members/{id}`: the member's tokens stop working on their very next request. */
export const deleteMember = implementJwt(members.deleteMember, async ({ services, member, params }) => ({
  status: 200,
  body: await removeMember(services, member, params.id),
}));
