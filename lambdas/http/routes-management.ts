import type { ErrorCode } from '../domain/kernel/errors.js';
import type { Role } from '../domain/access/member.js';
import { JobListSchema } from '../schemas/records.js';
import {
  ApiKeyListQuerySchema,
  ApiKeyListSchema,
  ApiKeySchema,
  ApiKeyWithSecretSchema,
  BillingEventAckSchema,
  CheckoutRequestSchema,
  CheckoutSessionSchema,
  CreateApiKeySchema,
  DashboardJobListQuerySchema,
  DashboardJobSchema,
  JwksSchema,
  LedgerEntrySchema,
  LedgerListSchema,
  LedgerQuerySchema,
  OrganizationSchema,
  PortalRequestSchema,
  PortalSessionSchema,
  RotateApiKeySchema,
  TestCreditsRequestSchema,
  UsageListSchema,
  UsageQuerySchema,
} from '../schemas/management.js';
import type { RouteDefinition } from './routes.js';

/** Module names under lambdas/http/handlers for the routes below. */
export type ManagementHandlerName =
  | 'get-jwks'
  | 'get-organization'
  | 'list-api-keys'
  | 'create-api-key'
  | 'revoke-api-key'
  | 'rotate-api-key'
  | 'list-usage'
  | 'list-organization-jobs'
  | 'get-organization-job'
  | 'list-ledger'
  | 'create-checkout-session'
  | 'create-portal-session'
  | 'create-test-credits'
  | 'receive-billing-event'
  | 'local-checkout-page'
  | 'local-checkout-pay'
  | 'local-portal-page';

const TAG = 'Management';
/** every JWT route can answer these */
const JWT_ERRORS: ErrorCode[] = ['invalid_token', 'scope_not_granted', 'service_unavailable', 'internal_error'];
const BODY_ERRORS: ErrorCode[] = ['invalid_json', 'unsupported_media_type', 'parameter_invalid', 'parameter_missing', 'parameter_unknown'];
const QUERY_ERRORS: ErrorCode[] = ['parameter_invalid', 'parameter_unknown'];

function mgmt(route: Omit<RouteDefinition, 'auth' | 'tag' | 'timeoutSeconds' | 'minimumRole'> & { minimumRole: Role }): RouteDefinition {
  return { auth: 'jwt', tag: TAG, timeoutSeconds: 10, ...route, summary: `${route.summary} (role: ${route.minimumRole} or higher)` };
}

/** Routes of the management surface (`/mgmt/v1`), the auth component and the payment provider's callback. */
export const MANAGEMENT_ROUTES: readonly RouteDefinition[] = [
  {
    id: 'get-jwks',
    method: 'GET',
    path: '/.well-known/jwks.json',
    auth: 'none',
    handler: 'get-jwks',
    summary: 'The public keys dashboard tokens are verified with (JWKS)',
    tag: 'Internal',
    responses: { 200: { description: 'a JSON Web Key Set', schema: JwksSchema } },
    errors: ['internal_error'],
    timeoutSeconds: 10,
  },
  mgmt({
    id: 'get-organization',
    method: 'GET',
    path: '/mgmt/v1/organization',
    minimumRole: 'member',
    handler: 'get-organization',
    summary: 'The organisation of the token: plan, live and test balances, billing country, retention',
    responses: { 200: { description: 'the organisation', schema: OrganizationSchema } },
    errors: [...JWT_ERRORS, 'resource_not_found'],
  }),
  mgmt({
    id: 'list-api-keys',
    method: 'GET',
    path: '/mgmt/v1/api-keys',
    minimumRole: 'member',
    handler: 'list-api-keys',
    summary: "List the organisation's API keys (prefix only, never the secret)",
    query: ApiKeyListQuerySchema,
    responses: { 200: { description: 'every key, newest first', schema: ApiKeyListSchema } },
    errors: [...JWT_ERRORS, ...QUERY_ERRORS],
  }),
  mgmt({
    id: 'create-api-key',
    method: 'POST',
    path: '/mgmt/v1/api-keys',
    minimumRole: 'admin',
    handler: 'create-api-key',
    summary: 'Create an API key; its secret is shown once',
    body: CreateApiKeySchema,
    responses: { 201: { description: 'the key, with its secret', schema: ApiKeyWithSecretSchema } },
    errors: [...JWT_ERRORS, ...BODY_ERRORS],
  }),
  mgmt({
    id: 'revoke-api-key',
    method: 'POST',
    path: '/mgmt/v1/api-keys/{id}/revoke',
    minimumRole: 'admin',
    handler: 'revoke-api-key',
    summary: 'Revoke an API key: immediate and irreversible; admitted jobs still finish',
    responses: { 200: { description: 'the revoked key', schema: ApiKeySchema } },
    errors: [...JWT_ERRORS, 'api_key_not_found'],
  }),
  mgmt({
    id: 'rotate-api-key',
    method: 'POST',
    path: '/mgmt/v1/api-keys/{id}/rotate',
    minimumRole: 'admin',
    handler: 'rotate-api-key',
    summary: 'Rotate an API key: a new secret for the same key; the old one works for grace_seconds more',
    body: RotateApiKeySchema,
    responses: { 200: { description: 'the key, with its new secret', schema: ApiKeyWithSecretSchema } },
    errors: [...JWT_ERRORS, ...BODY_ERRORS, 'api_key_not_found', 'api_key_revoked'],
  }),
  mgmt({
    id: 'list-usage',
    method: 'GET',
    path: '/mgmt/v1/usage',
    minimumRole: 'member',
    handler: 'list-usage',
    summary: 'Usage per (day, endpoint, mode), newest day first, then endpoint',
    query: UsageQuerySchema,
    responses: { 200: { description: 'usage rows (at most 366 days)', schema: UsageListSchema } },
    errors: [...JWT_ERRORS, ...QUERY_ERRORS],
  }),
  mgmt({
    id: 'list-organization-jobs',
    method: 'GET',
    path: '/mgmt/v1/jobs',
    minimumRole: 'member',
    handler: 'list-organization-jobs',
    summary: "The organisation's jobs across every key and both modes, newest first",
    query: DashboardJobListQuerySchema,
    responses: { 200: { description: 'a page of jobs', schema: JobListSchema } },
    errors: [...JWT_ERRORS, ...QUERY_ERRORS],
  }),
  mgmt({
    id: 'get-organization-job',
    method: 'GET',
    path: '/mgmt/v1/jobs/{id}',
    minimumRole: 'member',
    handler: 'get-organization-job',
    summary: 'A job as GET /v1/jobs/{id} shows it, plus the API key that created it',
    responses: { 200: { description: 'the job and its API key', schema: DashboardJobSchema } },
    errors: [...JWT_ERRORS, 'job_not_found'],
  }),
  mgmt({
    id: 'list-ledger',
    method: 'GET',
    path: '/mgmt/v1/ledger',
    minimumRole: 'member',
    handler: 'list-ledger',
    summary: 'Credit ledger entries, newest first; a balance is the sum of its mode’s entries',
    query: LedgerQuerySchema,
    responses: { 200: { description: 'a page of ledger entries', schema: LedgerListSchema } },
    errors: [...JWT_ERRORS, ...QUERY_ERRORS],
  }),
  mgmt({
    id: 'create-checkout-session',
    method: 'POST',
    path: '/mgmt/v1/billing/checkout',
    minimumRole: 'owner',
    handler: 'create-checkout-session',
    summary: 'Open a checkout session for a credit top-up or a subscription',
    body: CheckoutRequestSchema,
    responses: { 200: { description: 'the session: send the payer to url', schema: CheckoutSessionSchema } },
    errors: [...JWT_ERRORS, ...BODY_ERRORS, 'resource_not_found'],
  }),
  mgmt({
    id: 'create-portal-session',
    method: 'POST',
    path: '/mgmt/v1/billing/portal',
    minimumRole: 'owner',
    handler: 'create-portal-session',
    summary: "A short-lived link to the payment provider's billing portal",
    body: PortalRequestSchema,
    responses: { 200: { description: 'the portal session', schema: PortalSessionSchema } },
    errors: [...JWT_ERRORS, ...BODY_ERRORS, 'resource_not_found'],
  }),
  mgmt({
    id: 'create-test-credits',
    method: 'POST',
    path: '/mgmt/v1/billing/test-credits',
    minimumRole: 'admin',
    handler: 'create-test-credits',
    summary: 'Add free simulated credits to the test balance (never the live one)',
    body: TestCreditsRequestSchema,
    responses: { 200: { description: 'the deposit entry', schema: LedgerEntrySchema } },
    errors: [...JWT_ERRORS, ...BODY_ERRORS, 'resource_not_found'],
  }),
  {
    id: 'receive-billing-event',
    method: 'POST',
    path: '/internal/v1/billing/events',
    auth: 'signature',
    signatureHeader: 'Stripe-Signature',
    handler: 'receive-billing-event',
    summary: "The payment provider's signed events (Stripe-Signature); deposits credits exactly once per event",
    tag: 'Internal',
    responses: { 200: { description: 'acknowledged', schema: BillingEventAckSchema } },
    errors: ['invalid_signature', 'service_unavailable', 'internal_error'],
    timeoutSeconds: 10,
  },
  {
    id: 'local-checkout-page',
    method: 'GET',
    path: '/local/checkout/{session}',
    auth: 'none',
    handler: 'local-checkout-page',
    summary: 'Local runtime only: the stand-in payment page of a checkout session',
    tag: 'Internal',
    responses: { 200: { description: 'an HTML page with a pay button', contentType: 'text/html' } },
    errors: ['route_not_found', 'resource_not_found'],
    timeoutSeconds: 10,
  },
  {
    id: 'local-checkout-pay',
    method: 'POST',
    path: '/local/checkout/{session}/pay',
    auth: 'none',
    handler: 'local-checkout-pay',
    summary: "Local runtime only: the pay button; sends the signed provider event to /internal/v1/billing/events",
    tag: 'Internal',
    responses: { 200: { description: 'an HTML page with the outcome', contentType: 'text/html' } },
    errors: ['route_not_found', 'resource_not_found'],
    timeoutSeconds: 10,
  },
  {
    id: 'local-portal-page',
    method: 'GET',
    path: '/local/portal/{session}',
    auth: 'none',
    handler: 'local-portal-page',
    summary: 'Local runtime only: the stand-in billing portal',
    tag: 'Internal',
    responses: { 200: { description: 'an HTML page', contentType: 'text/html' } },
    errors: ['route_not_found', 'resource_not_found'],
    timeoutSeconds: 10,
  },
];

/** The one place a management route's minimum role is stated; handlers read it from here. */
export function minimumRoleOf(handler: ManagementHandlerName): Role {
  const role = MANAGEMENT_ROUTES.find((route) => route.handler === handler)?.minimumRole;
  if (!role) throw new Error(`route table: ${handler} states no minimum role`);
  return role;
}
