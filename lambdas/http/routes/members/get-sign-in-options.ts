import { SignInOptionsSchema } from '../../../schemas/members.js';
import { implement } from '../../implement.js';
import { defineRoute } from '../define.js';

/** Public: what the dashboard shows on its sign-in page. */
export const route = defineRoute({
  module: import.meta.url,
  id: 'get-sign-in-options',
  method: 'GET',
  path: '/mgmt/v1/sign-in',
  summary:
    'How to sign in to the dashboard (and sign up, where offered): the local runtime, the stack’s Cognito user pool, or another issuer',
  tag: 'Management',
  auth: 'none',
  middleware: [],
  responses: { 200: { description: 'the sign-in options', schema: SignInOptionsSchema } },
  errors: [],
  access: { table: 'none' },
  settings: ['identity_provider'],
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

/** `GET /mgmt/v1/sign-in`: public; the dashboard's sign-in page follows it. */
export const handler = implement(
  route,
  async ({ services }) => ({
    status: 200,
    body: { object: 'sign_in_options' as const, ...services.identity.signInOptions() },
    headers: { 'Cache-Control': 'public, max-age=300' },
  }),
  { extend: async () => (await import('../../../composition/identity-provider.js')).withIdentityProvider },
);
