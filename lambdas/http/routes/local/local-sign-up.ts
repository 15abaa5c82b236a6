import { signUpLocally } from '../../../domain/access/organizations.js';
import { LocalSignUpAnswerSchema, LocalSignUpSchema } from '../../../schemas/members.js';
import { implement } from '../../implement.js';
import { defineRoute, JSON_BODY_BYTES } from '../define.js';

/** What `/dashboard/signup` posts: the local runtime signs people up itself (on AWS, Cognito's hosted UI does). */
export const route = defineRoute({
  module: import.meta.url,
  id: 'local-sign-up',
  method: 'POST',
  path: '/local/signup',
  summary:
    'Local runtime only: create an organisation on the lowest plan with 10,000 test credits, and sign its owner in',
  tag: 'Internal',
  auth: 'none',
  middleware: [],
  body: LocalSignUpSchema,
  responses: {
    201: { description: 'the organisation, its owner and the owner’s sign-in link', schema: LocalSignUpAnswerSchema },
  },
  // where the local issuer does not sign people in (AWS)
  errors: ['route_not_found'],
  // one transaction: the organisation, balances, ledger, owner
  access: { table: 'readwrite' },
  settings: ['identity_provider'],
  localOnly: true,
  timeoutSeconds: 10,
  maxBodyBytes: JSON_BODY_BYTES,
});

/** `POST /local/signup`: what `/dashboard/signup` posts; 404 wherever the local issuer does not sign people in. */
export const handler = implement(
  route,
  async ({ services, body }) => ({
    status: 201,
    body: await signUpLocally(services, { organizationName: body.organization_name, email: body.email }),
  }),
  { extend: async () => (await import('../../../composition/identity-provider.js')).withIdentityProvider },
);
