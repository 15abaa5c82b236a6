import { inviteMember as invite } from '../../../domain/access/memberships.js';
import { InvitedMemberSchema, InviteMemberSchema } from '../../../schemas/members.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'invite-member',
  method: 'POST',
  path: '/mgmt/v1/members',
  minimumRole: 'admin',
  summary: 'Invite a person by email with a role; only an owner may invite an owner',
  body: InviteMemberSchema,
  responses: { 201: { description: 'the invited member (locally with a sign-in link)', schema: InvitedMemberSchema } },
  // service_unavailable (no identity provider of ours to invite with) comes with JWT auth
  errors: ['member_already_exists'],
  // a replay never shows the sign-in link again
  middleware: ['idempotency-without-secret', 'strict-input'],
  access: { table: 'readwrite' },
  settings: ['invitations'],
});

/** `POST /mgmt/v1/members`: the identity provider registers the person (Cognito emails them; locally the answer carries a sign-in link). */
export const handler = implementJwt(
  route,
  async ({ services, member, body }) => ({ status: 201, body: await invite(services, member, body) }),
  {
    extend: async () => (await import('../../../composition/identity-provider.js')).withIdentityProvider,
  },
);
