import { withIdentityProvider } from '../../composition/identity-provider.js';
import { implement } from '../implement.js';
import { getSignInOptions } from '../routes/members.js';

/** `GET /mgmt/v1/sign-in`: public; the dashboard's sign-in page follows it. */
export const handler = implement(
  getSignInOptions,
  async ({ services }) => ({
    status: 200,
    body: { object: 'sign_in_options' as const, ...services.identity.signInOptions() },
    headers: { 'Cache-Control': 'public, max-age=300' },
  }),
  { extend: withIdentityProvider },
);
