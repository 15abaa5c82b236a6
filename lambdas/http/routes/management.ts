import * as z from 'zod/mini';
import { ID_BODY_PATTERN } from '../../domain/kernel/ids.js';
import {
  ApiKeyListQuerySchema,
  ApiKeyListSchema,
  ApiKeySchema,
  ApiKeyWithSecretSchema,
  CheckoutRequestSchema,
  CheckoutSessionSchema,
  CreateApiKeySchema,
  DashboardJobListQuerySchema,
  DashboardJobSchema,
  JobInputListSchema,
  LedgerEntrySchema,
  LedgerListSchema,
  LedgerQuerySchema,
  OrganizationSchema,
  PortalRequestSchema,
  PortalSessionSchema,
  RotateApiKeySchema,
  SetSpendLimitSchema,
  TestCreditsRequestSchema,
  UsageListSchema,
  UsageQuerySchema,
} from '../../schemas/management.js';
import { JobListSchema, RedactionSchema } from '../../schemas/records.js';
import { describe } from '../../schemas/zod.js';
import { managementRoute } from './define.js';
import { JobIdParams, REDACTION_ACCESS } from './jobs.js';

const ApiKeyIdParams = z.object({
  id: describe(z.string().check(z.regex(new RegExp(`^key_${ID_BODY_PATTERN}$`))), 'API key id'),
});

const READ = { table: 'read' } as const;
const WRITE = { table: 'readwrite' } as const;
// presenting jobs signs result URLs
const READ_JOBS = { table: 'read', readObjects: ['outputs'] } as const;

export const getOrganization = managementRoute({
  id: 'get-organization',
  method: 'GET',
  path: '/mgmt/v1/organization',
  minimumRole: 'member',
  summary: 'The organisation of the token: plan, live and test balances, billing country, retention',
  responses: { 200: { description: 'the organisation', schema: OrganizationSchema } },
  errors: ['resource_not_found'],
  access: READ,
  handler: 'organization#getOrganization',
});

export const listApiKeys = managementRoute({
  id: 'list-api-keys',
  method: 'GET',
  path: '/mgmt/v1/api-keys',
  minimumRole: 'member',
  summary: "List the organisation's API keys (prefix only, never the secret)",
  query: ApiKeyListQuerySchema,
  responses: { 200: { description: 'every key, newest first', schema: ApiKeyListSchema } },
  errors: [],
  access: READ,
  handler: 'api-keys#listApiKeys',
});

export const createApiKey = managementRoute({
  id: 'create-api-key',
  method: 'POST',
  path: '/mgmt/v1/api-keys',
  minimumRole: 'admin',
  summary: 'Create an API key; its secret is shown once',
  body: CreateApiKeySchema,
  responses: { 201: { description: 'the key, with its secret', schema: ApiKeyWithSecretSchema } },
  // the token's organisation does not exist
  errors: ['resource_not_found'],
  idempotency: 'without-secret',
  // transactions over the key, its secrets and its pointer item
  access: WRITE,
  handler: 'api-keys#createApiKey',
});

export const revokeApiKey = managementRoute({
  id: 'revoke-api-key',
  method: 'POST',
  path: '/mgmt/v1/api-keys/{id}/revoke',
  minimumRole: 'admin',
  summary: 'Revoke an API key: immediate and irreversible; admitted jobs still finish',
  params: ApiKeyIdParams,
  notFound: 'api_key_not_found',
  responses: { 200: { description: 'the revoked key', schema: ApiKeySchema } },
  errors: ['api_key_not_found'],
  access: WRITE,
  handler: 'api-keys#revokeApiKey',
});

export const rotateApiKey = managementRoute({
  id: 'rotate-api-key',
  method: 'POST',
  path: '/mgmt/v1/api-keys/{id}/rotate',
  minimumRole: 'admin',
  summary: 'Rotate an API key: a new secret for the same key; the old one works for grace_seconds more',
  params: ApiKeyIdParams,
  notFound: 'api_key_not_found',
  body: RotateApiKeySchema,
  responses: { 200: { description: 'the key, with its new secret', schema: ApiKeyWithSecretSchema } },
  errors: ['api_key_not_found', 'api_key_revoked'],
  idempotency: 'without-secret',
  access: WRITE,
  handler: 'api-keys#rotateApiKey',
});

export const setApiKeySpendLimit = managementRoute({
  id: 'set-api-key-spend-limit',
  method: 'POST',
  path: '/mgmt/v1/api-keys/{id}/spend-limit',
  minimumRole: 'admin',
  summary: "Set or remove an API key's spend limit per UTC day or month; it holds from the next call",
  params: ApiKeyIdParams,
  notFound: 'api_key_not_found',
  body: SetSpendLimitSchema,
  responses: {
    200: { description: 'the key, with its limit and its spend in the current period', schema: ApiKeySchema },
  },
  errors: ['api_key_not_found'],
  // a transaction over the key, its secrets and the keys version; reads the key's spend counter
  access: WRITE,
  handler: 'api-keys#setApiKeySpendLimit',
});

export const listUsage = managementRoute({
  id: 'list-usage',
  method: 'GET',
  path: '/mgmt/v1/usage',
  minimumRole: 'member',
  summary: 'Usage per (day, endpoint, mode), newest day first, then endpoint',
  query: UsageQuerySchema,
  responses: { 200: { description: 'usage rows (at most 366 days)', schema: UsageListSchema } },
  errors: [],
  access: READ,
  handler: 'organization#listUsage',
});

export const listOrganizationJobs = managementRoute({
  id: 'list-organization-jobs',
  method: 'GET',
  path: '/mgmt/v1/jobs',
  minimumRole: 'member',
  summary: "The organisation's jobs across every key and both modes, newest first",
  query: DashboardJobListQuerySchema,
  responses: { 200: { description: 'a page of jobs', schema: JobListSchema } },
  errors: [],
  access: READ_JOBS,
  handler: 'organization-jobs#listOrganizationJobs',
});

export const getOrganizationJob = managementRoute({
  id: 'get-organization-job',
  method: 'GET',
  path: '/mgmt/v1/jobs/{id}',
  minimumRole: 'member',
  summary: 'A job as GET /v1/jobs/{id} shows it, plus the API key that created it',
  params: JobIdParams,
  notFound: 'job_not_found',
  responses: { 200: { description: 'the job and its API key', schema: DashboardJobSchema } },
  errors: [],
  access: READ_JOBS,
  handler: 'organization-jobs#getOrganizationJob',
});

export const listOrganizationJobInputs = managementRoute({
  id: 'list-organization-job-inputs',
  method: 'GET',
  path: '/mgmt/v1/jobs/{id}/inputs',
  minimumRole: 'member',
  summary:
    "A job's input files, each with a short-lived signed download URL while its bytes are kept (the dashboard draws results on them)",
  params: JobIdParams,
  notFound: 'job_not_found',
  responses: { 200: { description: 'the inputs, in request order', schema: JobInputListSchema } },
  errors: [],
  // multipart inputs are under inputs/, uploaded ones under uploads/; ListBucket so a missing object is a 404, not a 403
  access: { table: 'read', readObjects: ['inputs', 'uploads'], listObjects: true },
  handler: 'organization-jobs#listOrganizationJobInputs',
});

export const redactOrganizationJob = managementRoute({
  id: 'redact-organization-job',
  method: 'POST',
  path: '/mgmt/v1/jobs/{id}/redact',
  minimumRole: 'admin',
  summary:
    'What POST /v1/jobs/{id}/redact does, for any job of the organisation in either mode: its files deleted and its result null for good',
  params: JobIdParams,
  notFound: 'job_not_found',
  responses: {
    200: {
      description: 'the redaction; a repeated call answers the first time and files_deleted 0',
      schema: RedactionSchema,
    },
  },
  errors: ['job_not_redactable'],
  access: REDACTION_ACCESS,
  handler: 'organization-jobs#redactOrganizationJob',
  timeoutSeconds: 30,
});

export const listLedger = managementRoute({
  id: 'list-ledger',
  method: 'GET',
  path: '/mgmt/v1/ledger',
  minimumRole: 'member',
  summary: 'Credit ledger entries, newest first; a balance is the sum of its mode’s entries',
  query: LedgerQuerySchema,
  responses: { 200: { description: 'a page of ledger entries', schema: LedgerListSchema } },
  errors: [],
  access: READ,
  handler: 'organization#listLedger',
});

export const createCheckoutSession = managementRoute({
  id: 'create-checkout-session',
  method: 'POST',
  path: '/mgmt/v1/billing/checkout',
  minimumRole: 'owner',
  summary: 'Open a checkout session for a credit top-up or a subscription',
  body: CheckoutRequestSchema,
  responses: { 200: { description: 'the session: send the payer to url', schema: CheckoutSessionSchema } },
  errors: ['resource_not_found'],
  // Idempotency-Key records, the provider customer id
  access: WRITE,
  settings: ['payments'],
  handler: 'billing#createCheckoutSession',
});

export const createPortalSession = managementRoute({
  id: 'create-portal-session',
  method: 'POST',
  path: '/mgmt/v1/billing/portal',
  minimumRole: 'owner',
  summary: "A short-lived link to the payment provider's billing portal",
  body: PortalRequestSchema,
  responses: { 200: { description: 'the portal session', schema: PortalSessionSchema } },
  errors: ['resource_not_found'],
  access: WRITE,
  settings: ['payments'],
  handler: 'billing#createPortalSession',
});

export const createTestCredits = managementRoute({
  id: 'create-test-credits',
  method: 'POST',
  path: '/mgmt/v1/billing/test-credits',
  minimumRole: 'admin',
  summary: 'Add free simulated credits to the test balance (never the live one)',
  body: TestCreditsRequestSchema,
  responses: { 200: { description: 'the deposit entry', schema: LedgerEntrySchema } },
  errors: ['resource_not_found'],
  access: WRITE,
  handler: 'organization#createTestCredits',
});

export const MANAGEMENT_ROUTES = [
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
] as const;
