import { withIdentityProvider } from '../../composition/identity-provider.js';
import { inviteMember as invite } from '../../domain/access/memberships.js';
import { implementJwt } from '../implement-jwt.js';
import { inviteMember } from '../routes/members.js';

/** `POST /mgmt/v1/members`: the identity provider registers the person (Cognito emails them; locally the answer carries a sign-in link). */
export const handler = implementJwt(inviteMember, async ({ services, member, body }) => ({ status: 201, body: await invite(services, member, body) }), {
  extend: withIdentityProvider,
});
