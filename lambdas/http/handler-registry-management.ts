import type { HandlerFactory } from './handler-registry.js';
import { createApiKeyHandler } from './handlers/create-api-key.js';
import { createCheckoutSessionHandler } from './handlers/create-checkout-session.js';
import { createPortalSessionHandler } from './handlers/create-portal-session.js';
import { createTestCreditsHandler } from './handlers/create-test-credits.js';
import { getJwksHandler } from './handlers/get-jwks.js';
import { getOrganizationJobHandler } from './handlers/get-organization-job.js';
import { getOrganizationHandler } from './handlers/get-organization.js';
import { listApiKeysHandler } from './handlers/list-api-keys.js';
import { listLedgerHandler } from './handlers/list-ledger.js';
import { listOrganizationJobsHandler } from './handlers/list-organization-jobs.js';
import { listUsageHandler } from './handlers/list-usage.js';
import { localCheckoutPageHandler } from './handlers/local-checkout-page.js';
import { localCheckoutPayHandler } from './handlers/local-checkout-pay.js';
import { localPortalPageHandler } from './handlers/local-portal-page.js';
import { receiveBillingEventHandler } from './handlers/receive-billing-event.js';
import { revokeApiKeyHandler } from './handlers/revoke-api-key.js';
import { rotateApiKeyHandler } from './handlers/rotate-api-key.js';
import type { ManagementHandlerName } from './routes-management.js';

/** How the local runtime builds the management routes' handlers in-process. */
export const MANAGEMENT_HANDLER_FACTORIES: Record<ManagementHandlerName, HandlerFactory> = {
  'get-jwks': getJwksHandler,
  'get-organization': getOrganizationHandler,
  'list-api-keys': listApiKeysHandler,
  'create-api-key': createApiKeyHandler,
  'revoke-api-key': revokeApiKeyHandler,
  'rotate-api-key': rotateApiKeyHandler,
  'list-usage': listUsageHandler,
  'list-organization-jobs': listOrganizationJobsHandler,
  'get-organization-job': getOrganizationJobHandler,
  'list-ledger': listLedgerHandler,
  'create-checkout-session': createCheckoutSessionHandler,
  'create-portal-session': createPortalSessionHandler,
  'create-test-credits': createTestCreditsHandler,
  'receive-billing-event': receiveBillingEventHandler,
  'local-checkout-page': localCheckoutPageHandler,
  'local-checkout-pay': localCheckoutPayHandler,
  'local-portal-page': localPortalPageHandler,
};
