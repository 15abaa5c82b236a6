import * as z from 'zod';
import { MAX_GRACE_SECONDS } from '../domain/access/api-keys.js';
import { PRICE_IDS } from '../domain/money/billing-prices.js';
import { FAMILIES } from '../domain/catalogue/catalogue.js';
import { ID_BODY_PATTERN } from '../domain/kernel/ids.js';
import { EndpointSlugSchema, JobListQuerySchema, JobSchema, listOf, Timestamp } from './records.js';

/** `true` / `false` in a query string */
const QueryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');
const Livemode = QueryBoolean.optional().describe('true: live only; false: test only; omitted: both');
const FamilySchema = z.enum(FAMILIES).describe('endpoint family');
const IsoDate = z.iso.date().describe('YYYY-MM-DD (UTC)');
const HttpsOrLocalUrl = z.url({ protocol: /^https?$/ });

// ── API keys ────────────────────────────────────────────────────────────────

export const ApiKeySchema = z
  .object({
    id: z.string().regex(new RegExp(`^key_${ID_BODY_PATTERN}$`)),
    object: z.literal('api_key'),
    name: z.string(),
    livemode: z.boolean(),
    prefix: z.string().describe('the first 12 characters of the secret and an ellipsis; the secret itself is never shown again'),
    scopes: z.array(FamilySchema).describe('endpoint families the key may call'),
    created: Timestamp,
    last_used_at: Timestamp.nullable().describe('recorded to a 5-minute resolution'),
    revoked_at: Timestamp.nullable(),
    expires_at: Timestamp.nullable(),
  })
  .strict()
  .meta({ id: 'ApiKey' });

export const ApiKeyWithSecretSchema = ApiKeySchema.extend({
  secret: z
    .string()
    .regex(/^chk_(live|test)_[1-9A-HJ-NP-Za-km-z]{32}$/)
    .describe('shown once: store it now'),
})
  .strict()
  .meta({ id: 'ApiKeyWithSecret' });

export const ApiKeyListSchema = listOf(ApiKeySchema, 'ApiKeyList');
export const ApiKeyListQuerySchema = z.object({ livemode: Livemode }).strict();

export const CreateApiKeySchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    livemode: z.boolean().describe('true: a chk_live_ key; false: a chk_test_ key'),
    scopes: z
      .array(FamilySchema)
      .min(1)
      .refine((scopes) => new Set(scopes).size === scopes.length, 'scopes must not repeat')
      .optional()
      .describe('omitted: every family'),
  })
  .strict()
  .meta({ id: 'CreateApiKey' });

export const RotateApiKeySchema = z
  .object({ grace_seconds: z.int().min(0).max(MAX_GRACE_SECONDS).describe('how long the old secret keeps working; 0 = stops at once') })
  .strict()
  .meta({ id: 'RotateApiKey' });

// ── organisation, usage, jobs, ledger ───────────────────────────────────────

export const OrganizationSchema = z
  .object({
    id: z.string().startsWith('org_'),
    object: z.literal('organization'),
    name: z.string(),
    plan: z.string(),
    billing_country: z.string().describe('ISO 3166-1 alpha-2'),
    storage_retention_days: z.int().min(0),
    balance: z.object({ live: z.int(), test: z.int() }).strict().describe('credits; each equals the sum of the ledger entries of its mode'),
  })
  .strict()
  .meta({ id: 'Organization' });

export const UsageQuerySchema = z
  .object({
    from: IsoDate.optional().describe('first day, inclusive; default 29 days before `to`'),
    to: IsoDate.optional().describe('last day, inclusive; default today (UTC)'),
    endpoint: EndpointSlugSchema.optional(),
    livemode: Livemode,
  })
  .strict();

export const UsageRowSchema = z
  .object({
    date: IsoDate,
    endpoint: EndpointSlugSchema,
    livemode: z.boolean(),
    requests: z.int().min(0).describe('jobs admitted that day'),
    succeeded: z.int().min(0),
    failed: z.int().min(0),
    expired: z.int().min(0),
    canceled: z.int().min(0),
    billable_units: z.int().min(0),
    credits_charged: z.int().min(0),
  })
  .strict()
  .meta({ id: 'UsageRow' });

export const UsageListSchema = listOf(UsageRowSchema, 'UsageList');

export const DashboardJobListQuerySchema = JobListQuerySchema.extend({ livemode: Livemode }).strict();

export const DashboardJobSchema = JobSchema.extend({
  api_key: z
    .object({ id: z.string().startsWith('key_'), prefix: z.string().nullable().describe('the key’s current prefix; null if the key no longer exists') })
    .strict()
    .describe('the API key that created the job, for audit'),
})
  .strict()
  .meta({ id: 'DashboardJob' });

export const LedgerEntrySchema = z
  .object({
    id: z.string().regex(new RegExp(`^led_${ID_BODY_PATTERN}$`)),
    object: z.literal('ledger_entry'),
    kind: z.enum(['reserve', 'commit', 'release', 'deposit', 'adjustment']),
    amount: z.int().describe('signed credits: the entry’s effect on the balance'),
    job_id: z.string().nullable(),
    livemode: z.boolean(),
    created: Timestamp,
  })
  .strict()
  .meta({ id: 'LedgerEntry' });

export const LedgerListSchema = listOf(LedgerEntrySchema, 'LedgerList');

export const LedgerQuerySchema = z
  .object({
    limit: JobListQuerySchema.shape.limit,
    starting_after: z
      .string()
      .regex(new RegExp(`^led_${ID_BODY_PATTERN}$`))
      .optional()
      .describe('id of the last entry of the previous page'),
    livemode: Livemode,
  })
  .strict();

// ── billing ─────────────────────────────────────────────────────────────────

export const CheckoutRequestSchema = z
  .object({
    price: z.enum(PRICE_IDS).describe('what to buy: a credit top-up or a subscription plan (see docs/management.md)'),
    success_url: HttpsOrLocalUrl.optional().describe('where the payer lands after paying; default the dashboard billing page'),
    cancel_url: HttpsOrLocalUrl.optional(),
  })
  .strict()
  .meta({ id: 'CheckoutRequest' });

export const CheckoutSessionSchema = z
  .object({
    object: z.literal('checkout_session'),
    id: z.string(),
    url: z.url().describe('send the payer here'),
    expires_at: Timestamp,
    price: z.enum(PRICE_IDS),
    mode: z.enum(['payment', 'subscription']),
  })
  .strict()
  .meta({ id: 'CheckoutSession' });

export const PortalRequestSchema = z
  .object({ return_url: HttpsOrLocalUrl.optional().describe('where the user returns; default the dashboard billing page') })
  .strict()
  .meta({ id: 'PortalRequest' });

export const PortalSessionSchema = z.object({ url: z.url(), expires_at: Timestamp }).strict().meta({ id: 'BillingPortalSession' });

export const TestCreditsRequestSchema = z
  .object({ amount: z.int().min(1).max(10_000_000).describe('credits to add to the test balance (at most 10,000,000 per call; call again for more)') })
  .strict()
  .meta({ id: 'TestCreditsRequest' });

export const BillingEventAckSchema = z
  .object({ received: z.literal(true), outcome: z.enum(['applied', 'duplicate', 'ignored']) })
  .strict()
  .meta({ id: 'BillingEventAck' });

export const JwksSchema = z
  .object({ keys: z.array(z.object({ kty: z.string(), kid: z.string().optional(), alg: z.string().optional(), use: z.string().optional() }).loose()) })
  .strict()
  .meta({ id: 'JsonWebKeySet' });
