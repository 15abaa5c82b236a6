import { withIdentityProvider } from '../../composition/identity-provider.js';
import { signUpLocally } from '../../domain/access/organizations.js';
import { implement } from '../implement.js';
import { implementJwt } from '../implement-jwt.js';
import * as internal from '../routes/internal.js';
import * as local from '../routes/local.js';
import * as members from '../routes/members.js';

// Signing in to the dashboard: the sign-in options, the token issuer's keys, and local sign-up.

/** `GET /mgmt/v1/sign-in`: public; the dashboard's sign-in page follows it. */
export const getSignInOptions = implement(
  members.getSignInOptions,
  async ({ services }) => ({
    status: 200,
    body: { object: 'sign_in_options' as const, ...services.identity.signInOptions() },
    headers: { 'Cache-Control': 'public, max-age=300' },
  }),
  { extend: withIdentityProvider },
);

/** `GET /.well-known/jwks.json`: the keys dashboard tokens verify against (the local issuer's, or the configured issuer's). */
export const getJwks = implementJwt(internal.getJwks, async ({ services }) => ({
  status: 200,
  body: await services.tokens.publishedKeys(),
  headers: { 'Cache-Control': 'public, max-age=300' },
}));

/** `POST /local/signup`: what `/dashboard/signup` posts; 404 wherever the local issuer does not sign people in. */
export const localSignUp = implement(
  local.localSignUp,
  async ({ services, body }) => ({
    status: 201,
    body: await signUpLocally(services, { organizationName: body.organization_name, email: body.email }),
  }),
  { extend: withIdentityProvider },
);
