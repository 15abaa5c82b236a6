import { route as cancelBatch } from './batches/cancel-batch.js';
import { route as cancelOrganizationBatch } from './batches/cancel-organization-batch.js';
import { route as createBatch } from './batches/create-batch.js';
import { route as getBatch } from './batches/get-batch.js';
import { route as getOrganizationBatch } from './batches/get-organization-batch.js';
import { route as listBatches } from './batches/list-batches.js';
import { route as listOrganizationBatches } from './batches/list-organization-batches.js';
import { isCatchAll, type RouteDefinition } from './define.js';
import { routes as inference } from './inference/create-job.js';
import { routes as quotes } from './inference/quote-call.js';
import { route as getErrorDoc } from './internal/get-error-doc.js';
import { route as getJwks } from './internal/get-jwks.js';
import { route as getOpenApi } from './internal/get-open-api.js';
import { route as receiveBillingEvent } from './internal/receive-billing-event.js';
import { route as receiveCompletion } from './internal/receive-completion.js';
import { routes as routeNotFound } from './internal/route-not-found.js';
import { route as cancelJob } from './jobs/cancel-job.js';
import { route as getJob } from './jobs/get-job.js';
import { route as listEndpoints } from './jobs/list-endpoints.js';
import { route as listJobs } from './jobs/list-jobs.js';
import { route as redactJob } from './jobs/redact-job.js';
import { route as localCheckoutPage } from './local/local-checkout-page.js';
import { route as localCheckoutPay } from './local/local-checkout-pay.js';
import { route as localPortalPage } from './local/local-portal-page.js';
import { route as localSignUp } from './local/local-sign-up.js';
import { route as createApiKey } from './management/create-api-key.js';
import { route as createCheckoutSession } from './management/create-checkout-session.js';
import { route as createPortalSession } from './management/create-portal-session.js';
import { route as createTestCredits } from './management/create-test-credits.js';
import { route as getOrganization } from './management/get-organization.js';
import { route as getOrganizationJob } from './management/get-organization-job.js';
import { route as listApiKeys } from './management/list-api-keys.js';
import { route as listLedger } from './management/list-ledger.js';
import { route as listOrganizationJobInputs } from './management/list-organization-job-inputs.js';
import { route as listOrganizationJobs } from './management/list-organization-jobs.js';
import { route as listUsage } from './management/list-usage.js';
import { route as redactOrganizationJob } from './management/redact-organization-job.js';
import { route as revokeApiKey } from './management/revoke-api-key.js';
import { route as rotateApiKey } from './management/rotate-api-key.js';
import { route as setApiKeySpendLimit } from './management/set-api-key-spend-limit.js';
import { route as deleteMember } from './members/delete-member.js';
import { route as getSignInOptions } from './members/get-sign-in-options.js';
import { route as inviteMember } from './members/invite-member.js';
import { route as listMembers } from './members/list-members.js';
import { route as updateMember } from './members/update-member.js';
import { route as createUpload } from './uploads/create-upload.js';
import { route as createWebhookEndpoint } from './webhooks/create-webhook-endpoint.js';
import { route as deleteWebhookEndpoint } from './webhooks/delete-webhook-endpoint.js';
import { route as getEvent } from './webhooks/get-event.js';
import { route as getWebhookEndpoint } from './webhooks/get-webhook-endpoint.js';
import { route as listEvents } from './webhooks/list-events.js';
import { route as listWebhookDeliveries } from './webhooks/list-webhook-deliveries.js';
import { route as listWebhookEndpoints } from './webhooks/list-webhook-endpoints.js';
import { route as redeliverEvent } from './webhooks/redeliver-event.js';
import { route as rotateWebhookSecret } from './webhooks/rotate-webhook-secret.js';
import { route as testWebhookEndpoint } from './webhooks/test-webhook-endpoint.js';

/**
 * Every route of the service, read by CDK, the local runtime and the OpenAPI generator, in the order
 * the OpenAPI document lists them. A route module states its definition and exports its `handler`
 * (the definition's `module` names the file); importing a definition runs nothing of the handler's.
 */
export const ROUTES: readonly RouteDefinition[] = [
  ...inference,
  ...quotes,
  getJob,
  listJobs,
  cancelJob,
  redactJob,
  listEndpoints,
  createBatch,
  getBatch,
  listBatches,
  cancelBatch,
  listOrganizationBatches,
  getOrganizationBatch,
  cancelOrganizationBatch,
  createUpload,
  getOrganization,
  listApiKeys,
  createApiKey,
  revokeApiKey,
  rotateApiKey,
  setApiKeySpendLimit,
  listUsage,
  listOrganizationJobs,
  getOrganizationJob,
  listOrganizationJobInputs,
  redactOrganizationJob,
  listLedger,
  createCheckoutSession,
  createPortalSession,
  createTestCredits,
  listMembers,
  inviteMember,
  updateMember,
  deleteMember,
  getSignInOptions,
  listWebhookEndpoints,
  createWebhookEndpoint,
  getWebhookEndpoint,
  deleteWebhookEndpoint,
  testWebhookEndpoint,
  listWebhookDeliveries,
  rotateWebhookSecret,
  listEvents,
  getEvent,
  redeliverEvent,
  getOpenApi,
  getErrorDoc,
  getJwks,
  receiveCompletion,
  receiveBillingEvent,
  localCheckoutPage,
  localCheckoutPay,
  localPortalPage,
  localSignUp,
  ...routeNotFound,
];

/**
 * The routes the OpenAPI document describes: every one but the local runtime's own pages
 * (`/local/…`, `localOnly`), which are no part of the API a deployed stack serves, and the
 * catch-all, which only answers that a route does not exist (docs/internals/architecture.md).
 */
export const DOCUMENTED_ROUTES: readonly RouteDefinition[] = ROUTES.filter(
  (route) => !route.localOnly && !isCatchAll(route),
);
