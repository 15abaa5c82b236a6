import { withIdentityProvider } from '../../composition/identity-provider.js';
import { signUpLocally } from '../../domain/access/sign-up.js';
import { implement } from '../implement.js';
import { localSignUp } from '../routes/local.js';

/** `POST /local/signup`: what `/dashboard/signup` posts; 404 wherever the local issuer does not sign people in. */
export const handler = implement(
  localSignUp,
  async ({ services, body }) => ({ status: 201, body: await signUpLocally(services, { organizationName: body.organization_name, email: body.email }) }),
  { extend: withIdentityProvider },
);
