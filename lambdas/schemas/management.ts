import * as z from 'zod/mini';
import { MAX_GRACE_SECONDS, MAX_KEY_LIFETIME_SECONDS } from '../domain/access/api-keys.js';
import { FAMILIES } from '../domain/catalogue/catalogue.js';
import { STORAGE_RETENTION_DAYS } from '../domain/erasure/retention-period.js';
import { ID_BODY_PATTERN } from '../domain/kernel/ids.js';
import { PUBLIC_URL_MAX_LENGTH } from '../domain/kernel/public-urls.js';
import { PRICE_IDS } from '../domain/money/billing-prices.js';
import { SPEND_PERIODS } from '../domain/ports/access.js';
import { EndpointSlugSchema, FamilySchema, JobListQuerySchema, JobSchema, listOf, Timestamp } from './records.js';
import { describe, meta, refusing } from './zod.js';

/** `true` / `false` in a query string */
const QueryBoolean = z.pipe(
  z.enum(['true', 'false']),
  z.transform((value) => value === 'true'),
);
export const Livemode = describe(z.optional(QueryBoolean), 'true: live only; false: test only; omitted: both');
const IsoDate = describe(z.iso.date(), 'YYYY-MM-DD (UTC)');
// the payment provider takes addresses of up to 2048 characters, as every URL parameter of the API
const HttpsOrLocalUrl = z.url({ protocol: /^https?$/ }).check(z.maxLength(PUBLIC_URL_MAX_LENGTH));

// ── API keys ────────────────────────────────────────────────────────────────

/** The most a spend limit may name: a hundred million credits, far above any plan's spend. */
export const MAX_SPEND_LIMIT_CREDITS = 100_000_000;

export const SpendLimitSchema = meta(
  z.strictObject({
    credits: describe(
      z.int().check(z.minimum(0), z.maximum(MAX_SPEND_LIMIT_CREDITS)),
      'the most the key may have charged plus reserved in one period; 0 refuses every paid call',
    ),
    period: describe(z.enum(SPEND_PERIODS), 'UTC day (rolls at midnight UTC) or UTC month (rolls on the 1st)'),
  }),
  { id: 'SpendLimit' },
);

export const ApiKeySchema = meta(
  z.strictObject({
    id: z.string().check(z.regex(new RegExp(`^key_${ID_BODY_PATTERN}$`))),
    object: z.literal('api_key'),
    name: z.string(),
    livemode: z.boolean(),
    prefix: describe(
      z.string(),
      'the first 12 characters of the secret and an ellipsis; the secret itself is never shown again',
    ),
    scopes: describe(z.array(FamilySchema), 'endpoint families the key may call'),
    created: Timestamp,
    last_used_at: describe(z.nullable(Timestamp), 'recorded to a 5-minute resolution'),
    revoked_at: z.nullable(Timestamp),
    expires_at: z.nullable(Timestamp),
    spend_limit: describe(z.nullable(SpendLimitSchema), 'null: the key may spend the whole balance'),
    spent: describe(
      z.strictObject({
        credits: describe(z.int(), 'charged plus still reserved by the key in the period'),
        period_start: describe(
          Timestamp,
          "the current period's first second: of the limit's period, or of the UTC month when there is no limit",
        ),
      }),
      "the key's spend in the current UTC period (docs/spend-limits.md)",
    ),
  }),
  { id: 'ApiKey' },
);

// z.extend keeps the base object's strictness
export const ApiKeyWithSecretSchema = meta(
  z.extend(ApiKeySchema, {
    secret: describe(
      z.string().check(z.regex(/^chk_(live|test)_[1-9A-HJ-NP-Za-km-z]{32}$/)),
      'shown once: store it now',
    ),
  }),
  { id: 'ApiKeyWithSecret' },
);

export const ApiKeyListSchema = listOf(ApiKeySchema, 'ApiKeyList');
export const ApiKeyListQuerySchema = z.strictObject({ livemode: Livemode });

export const CreateApiKeySchema = meta(
  z.strictObject({
    name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
    livemode: describe(z.boolean(), 'true: a chk_live_ key; false: a chk_test_ key'),
    scopes: describe(
      z.optional(
        z.array(FamilySchema).check(
          z.minLength(1),
          z.maxLength(FAMILIES.length),
          z.refine((scopes) => new Set(scopes).size === scopes.length, 'scopes must not repeat'),
        ),
      ),
      'omitted: every family',
    ),
    expires_in_seconds: describe(
      z.optional(z.int().check(z.minimum(60), z.maximum(MAX_KEY_LIFETIME_SECONDS))),
      'a short-lived key: it stops working this many seconds after creation (60 to 2,592,000 = 30 days; its `expires_at`); omitted: the key works until revoked',
    ),
    spend_limit: describe(z.optional(z.nullable(SpendLimitSchema)), 'omitted or null: no limit'),
  }),
  { id: 'CreateApiKey' },
);

export const SetSpendLimitSchema = meta(
  z.strictObject({ spend_limit: describe(z.nullable(SpendLimitSchema), 'null removes the limit') }),
  { id: 'SetSpendLimit' },
);

export const RotateApiKeySchema = meta(
  z.strictObject({
    grace_seconds: describe(
      z.int().check(z.minimum(0), z.maximum(MAX_GRACE_SECONDS)),
      'how long the old secret keeps working; 0 = stops at once',
    ),
  }),
  { id: 'RotateApiKey' },
);

// ── organisation, usage, jobs, ledger ───────────────────────────────────────

export const OrganizationSchema = meta(
  z.strictObject({
    id: z.string().check(z.startsWith('org_')),
    object: z.literal('organization'),
    name: z.string(),
    plan: z.string(),
    billing_country: describe(z.string(), 'ISO 3166-1 alpha-2'),
    storage_retention_days: describe(
      z.int().check(z.minimum(STORAGE_RETENTION_DAYS.min), z.maximum(STORAGE_RETENTION_DAYS.max)),
      'files older than this many days are deleted and older results redacted (docs/data-retention.md)',
    ),
    balance: describe(
      z.strictObject({ live: z.int(), test: z.int() }),
      'credits; each equals the sum of the ledger entries of its mode',
    ),
  }),
  { id: 'Organization' },
);

export const UsageQuerySchema = z.strictObject({
  from: describe(z.optional(IsoDate), 'first day, inclusive; default 29 days before `to`'),
  to: describe(z.optional(IsoDate), 'last day, inclusive; default today (UTC)'),
  endpoint: z.optional(EndpointSlugSchema),
  livemode: Livemode,
});

export const UsageRowSchema = meta(
  z.strictObject({
    date: IsoDate,
    endpoint: EndpointSlugSchema,
    livemode: z.boolean(),
    requests: describe(z.int().check(z.minimum(0)), 'jobs created that day, counted once they settle'),
    succeeded: z.int().check(z.minimum(0)),
    failed: z.int().check(z.minimum(0)),
    expired: z.int().check(z.minimum(0)),
    canceled: z.int().check(z.minimum(0)),
    billable_units: z.int().check(z.minimum(0)),
    credits_charged: z.int().check(z.minimum(0)),
  }),
  { id: 'UsageRow' },
);

export const UsageListSchema = listOf(UsageRowSchema, 'UsageList');

export const DashboardJobListQuerySchema = z.extend(JobListQuerySchema, {
  livemode: Livemode,
  top_level: describe(
    z.optional(QueryBoolean),
    'true: only the jobs API keys created, leaving out the child jobs an inspection runs for its stages (each inspection lists them in `stages[].job_id`); omitted or false: every job',
  ),
});

export const JobInputSchema = meta(
  z.strictObject({
    object: z.literal('job_input'),
    index: describe(z.int().check(z.minimum(0)), 'position of the input in the request'),
    filename: z.nullable(z.string()),
    content_type: z.string(),
    size_bytes: z.int().check(z.minimum(0)),
    url: describe(
      z.nullable(z.url()),
      'a short-lived signed download address of the bytes; null when they were not kept (a test-mode multipart input whose endpoint works from its SHA-256 alone) or are gone (retention)',
    ),
    expires_at: describe(z.nullable(Timestamp), 'when `url` stops working'),
  }),
  { id: 'JobInput' },
);

export const JobInputListSchema = listOf(JobInputSchema, 'JobInputList');

export const DashboardJobSchema = meta(
  z.extend(JobSchema, {
    api_key: describe(
      z.strictObject({
        id: z.string().check(z.startsWith('key_')),
        prefix: describe(z.nullable(z.string()), 'the key’s current prefix; null if the key no longer exists'),
      }),
      'the API key that created the job, for audit',
    ),
  }),
  { id: 'DashboardJob' },
);

export const LedgerEntrySchema = meta(
  z.strictObject({
    id: z.string().check(z.regex(new RegExp(`^led_${ID_BODY_PATTERN}$`))),
    object: z.literal('ledger_entry'),
    kind: z.enum(['reserve', 'commit', 'release', 'deposit', 'adjustment']),
    amount: describe(z.int(), 'signed credits: the entry’s effect on the balance'),
    job_id: z.nullable(z.string()),
    livemode: z.boolean(),
    created: Timestamp,
  }),
  { id: 'LedgerEntry' },
);

export const LedgerListSchema = listOf(LedgerEntrySchema, 'LedgerList');

export const LedgerQuerySchema = refusing(
  z.strictObject({
    limit: JobListQuerySchema.shape.limit,
    starting_after: describe(
      z.optional(z.string().check(z.regex(new RegExp(`^led_${ID_BODY_PATTERN}$`)))),
      'id of the last entry of the previous page',
    ),
    livemode: Livemode,
    endpoint: describe(
      z.optional(EndpointSlugSchema),
      'only entries of jobs of this inference endpoint (deposits, adjustments and entries written before this filter existed match none)',
    ),
  }),
  {
    // a job's status changes after its entries are written, and filtering on it would read every entry's job
    status:
      'The ledger has no status filter: an entry has no status, and its job’s status changes after the entry is written. Filter jobs with GET /mgmt/v1/jobs?status=…, or the ledger by endpoint or livemode.',
  },
);

// ── billing ─────────────────────────────────────────────────────────────────

export const CheckoutRequestSchema = meta(
  z.strictObject({
    price: describe(z.enum(PRICE_IDS), 'what to buy: a credit top-up or a subscription plan (see docs/management.md)'),
    success_url: describe(
      z.optional(HttpsOrLocalUrl),
      'where the payer lands after paying; default the dashboard billing page',
    ),
    cancel_url: z.optional(HttpsOrLocalUrl),
  }),
  { id: 'CheckoutRequest' },
);

export const CheckoutSessionSchema = meta(
  z.strictObject({
    object: z.literal('checkout_session'),
    id: z.string(),
    url: describe(z.url(), 'send the payer here'),
    expires_at: Timestamp,
    price: z.enum(PRICE_IDS),
    mode: z.enum(['payment', 'subscription']),
  }),
  { id: 'CheckoutSession' },
);

export const PortalRequestSchema = meta(
  z.strictObject({
    return_url: describe(z.optional(HttpsOrLocalUrl), 'where the user returns; default the dashboard billing page'),
  }),
  {
    id: 'PortalRequest',
  },
);

export const PortalSessionSchema = meta(z.strictObject({ url: z.url(), expires_at: Timestamp }), {
  id: 'BillingPortalSession',
});

export const TestCreditsRequestSchema = meta(
  z.strictObject({
    amount: describe(
      z.int().check(z.minimum(1), z.maximum(10_000_000)),
      'credits to add to the test balance (at most 10,000,000 per call; call again for more)',
    ),
  }),
  { id: 'TestCreditsRequest' },
);

export const BillingEventAckSchema = meta(
  z.strictObject({ received: z.literal(true), outcome: z.enum(['applied', 'duplicate', 'ignored']) }),
  { id: 'BillingEventAck' },
);

export const JwksSchema = meta(
  z.strictObject({
    keys: z.array(
      z.looseObject({
        kty: z.string(),
        kid: z.optional(z.string()),
        alg: z.optional(z.string()),
        use: z.optional(z.string()),
      }),
    ),
  }),
  { id: 'JsonWebKeySet' },
);

/** The path parameters of a route on one API key. */
export const ApiKeyIdParams = z.object({
  id: describe(z.string().check(z.regex(new RegExp(`^key_${ID_BODY_PATTERN}$`))), 'API key id'),
});
