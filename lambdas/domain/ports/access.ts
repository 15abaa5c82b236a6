import type { Member, MemberRecord, Role } from '../access/member.js';
import type { EndpointSlug, Family } from '../catalogue/catalogue.js';
import type { Clock } from '../kernel/clock.js';
import type { Page } from '../kernel/page.js';
import type { LedgerEntry } from '../money/ledger.js';

// Organisations, API keys, balances and the ledger (one store), memberships and sign-in, and the
// admission checks' own state: idempotency records and rate-limit counters.

export interface Organization {
  id: string;
  name: string;
  plan: string;
  billing_country: string;
  storage_retention_days: number;
  created: number;
  /** the payment provider's customer (Stripe `cus_…`); internal, never presented */
  billing_customer_id?: string | null;
}

export const SPEND_PERIODS = ['day', 'month'] as const;
export type SpendPeriod = (typeof SPEND_PERIODS)[number];

/** The most a key may have charged plus reserved in one UTC day or month (docs/internals/spend-limits.md). */
export interface SpendLimit {
  credits: number;
  period: SpendPeriod;
}

/** Where one key's spend in one period is counted: an item and its field (domain/access/spend-limits.ts). */
export interface SpendCounter {
  counterKey: string;
  field: string;
}

export interface ApiKeyRecord {
  id: string;
  org_id: string;
  name: string;
  livemode: boolean;
  prefix: string;
  scopes: Family[];
  created: number;
  last_used_at: number | null;
  revoked_at: number | null;
  expires_at: number | null;
  /** absent on keys made before spend limits: none (docs/internals/spend-limits.md) */
  spend_limit?: SpendLimit | null;
}

/** What a presented secret resolves to: the key plus the secret's own validity. */
export interface ApiKeyCredential {
  key: ApiKeyRecord;
  secretExpiresAt: number | null;
}

export interface LedgerQuery {
  orgId: string;
  livemode?: boolean;
  /** the endpoint slug of the entries' job */
  jobEndpoint?: EndpointSlug;
  limit: number;
  startingAfter?: string;
}

/** Everything an organisation starts with, written in one transaction: all of it or nothing. */
export interface OrganizationCreation {
  organization: Organization;
  /** starting balances; each one above zero has its deposit in `ledger` */
  balances: { live: number; test: number };
  ledger: LedgerEntry[];
  apiKeys: Array<{ key: ApiKeyRecord; secretHash: string }>;
  owner: MemberRecord;
}

export interface AccountStore {
  getOrganization(id: string): Promise<Organization | null>;
  /** false (and nothing written) when the owner already belongs to an organisation: a retried sign-up creates one organisation */
  createOrganization(creation: OrganizationCreation): Promise<boolean>;
  /** every organisation (operators only: `npm run admin -- list-organizations`) */
  listOrganizations(): Promise<Organization[]>;
  getBalance(orgId: string, livemode: boolean): Promise<number>;
  /** newest first; `jobEndpoint` matches only entries that carry their job's slug */
  listLedger(query: LedgerQuery): Promise<Page<LedgerEntry>>;
  /** false (and nothing written) when the key's organisation does not exist */
  putApiKey(key: ApiKeyRecord, secretHash: string): Promise<boolean>;
  /** strongly consistent: a revoked key must fail on the very next request */
  findCredential(secretHash: string): Promise<ApiKeyCredential | null>;
  /** the secret and the keys version of its organisation and mode, read in one snapshot */
  findCredentialWithKeysVersion(
    secretHash: string,
    orgId: string,
    livemode: boolean,
  ): Promise<{ credential: ApiKeyCredential | null; keysVersion: number }>;
  /** every key of the organisation, newest first */
  listApiKeys(orgId: string): Promise<ApiKeyRecord[]>;
  /** by id alone, whichever organisation owns it (so another organisation's key is a 403, not a 404) */
  getApiKey(keyId: string): Promise<ApiKeyRecord | null>;
  /** sets the key's spend limit (null: none), on the key and its secrets' snapshots, and bumps the mode's keys version, in one transaction; null when absent */
  setApiKeySpendLimit(orgId: string, keyId: string, limit: SpendLimit | null): Promise<ApiKeyRecord | null>;
  /** the credits on each spend counter (domain/access/spend-limits.ts), 0 for one never written; in the order asked */
  readKeySpend(counters: readonly SpendCounter[]): Promise<number[]>;
  /** sets `revoked_at` on the key and on the snapshot inside every one of its secret items, in one transaction */
  revokeApiKey(orgId: string, keyId: string, revokedAt: number): Promise<ApiKeyRecord | null>;
  /** adds a secret and caps the old ones' expiry at `oldSecretsExpireAt`, in one transaction; 'revoked' when the key is */
  rotateApiKey(orgId: string, keyId: string, rotation: ApiKeyRotation): Promise<ApiKeyRecord | 'revoked' | null>;
  /** records use at most once per `staleBefore` window; conditional, so most calls write nothing */
  touchApiKey(secretHash: string, key: ApiKeyRecord, now: number, staleBefore: number): Promise<void>;
}

export interface ApiKeyRotation {
  secretHash: string;
  prefix: string;
  now: number;
  oldSecretsExpireAt: number;
}

/** Why a membership write was refused. */
export type MembershipRefusal =
  /** the email is already a member of this organisation */
  | 'email_taken'
  /** the person (their member id) already belongs to an organisation */
  | 'user_taken'
  /** the change would leave the organisation without an owner */
  | 'last_owner'
  /** the member's role or existence changed since it was read (the caller reads again) */
  | 'changed';

/**
 * Memberships. Each organisation keeps a count of its owners, moved in the same transaction as
 * every role change and removal, so two concurrent demotions can never leave it without one.
 */
export interface MemberStore {
  /** strongly consistent: a removal or demotion holds on the very next request */
  get(orgId: string, memberId: string): Promise<MemberRecord | null>;
  /** the organisation of a member id, whichever it is (a person belongs to one organisation) */
  organizationOf(memberId: string): Promise<string | null>;
  /** every member of the organisation */
  list(orgId: string): Promise<MemberRecord[]>;
  add(member: MemberRecord): Promise<MemberRecord | MembershipRefusal>;
  /** conditioned on the role `member` was read with */
  changeRole(member: MemberRecord, role: Role): Promise<MemberRecord | MembershipRefusal>;
  /** conditioned on the role `member` was read with */
  remove(member: MemberRecord): Promise<true | MembershipRefusal>;
  /** `invited` → `active`; a no-op when already active or gone */
  activate(member: MemberRecord): Promise<void>;
}

/** How people sign in to the dashboard, as `GET /mgmt/v1/sign-in` presents it. */
export interface SignInOptions {
  /** `local`: the local runtime signs people in itself; `cognito`: the stack's user pool; `external`: another OIDC issuer; `none`: not configured */
  provider: 'local' | 'cognito' | 'external' | 'none';
  /**
   * where to sign in: the authorisation endpoint (Cognito's hosted UI, or the local issuer's) with
   * `client_id`, `response_type=code` and `scope`; the dashboard adds `redirect_uri`, `state` and
   * the PKCE `code_challenge`
   */
  sign_in_url: string | null;
  /** where to sign up, where sign-up is offered */
  sign_up_url: string | null;
  /** where the dashboard exchanges the authorisation code and its PKCE verifier for tokens */
  token_url: string | null;
  /** the dashboard's OAuth client (public: no secret) */
  client_id: string | null;
}

/**
 * The identity provider the dashboard signs in with: the local runtime's own issuer, or the
 * stack's Cognito user pool. It decides the member id an invited person's tokens will carry.
 */
export interface IdentityProvider {
  signInOptions(): SignInOptions;
  /**
   * Registers an invited person: the member id their tokens will name and, where the service signs
   * people in itself (locally), a sign-in link; Cognito emails its own invitation instead.
   */
  invite(invitation: {
    orgId: string;
    email: string;
    role: Role;
  }): Promise<{ memberId: string; inviteUrl: string | null }>;
  /** a sign-in link for a member where the service signs people in itself (local sign-up); null elsewhere */
  signInLink(member: MemberRecord): Promise<string | null>;
}

/** The published verification keys (a JWKS document). */
export interface PublishedKeySet {
  keys: Array<{ kty: string; kid?: string; alg?: string; use?: string; [member: string]: unknown }>;
}

/**
 * Verifies a dashboard token (signature against the issuer's key set, issuer, audience,
 * lifetime, claims). Any failure is `401 invalid_token`; it never says which check failed.
 */
export interface TokenVerifier {
  verify(token: string): Promise<Member>;
  /** what `GET /.well-known/jwks.json` serves */
  publishedKeys(): Promise<PublishedKeySet>;
}

export interface PlanLookup {
  planOf(orgId: string): Promise<string>;
}

export interface StoredResponse {
  status: number;
  contentType: string;
  body: unknown;
}

export interface IdempotencyRecord {
  scope_key: string;
  fingerprint: string;
  status: 'in_progress' | 'completed';
  lock_token: string;
  lock_expires_at: number;
  expires_at: number;
  response: StoredResponse | null;
  /**
   * Set while a `wait=true` request that stored its `202` with the job is still holding its
   * connection (epoch seconds): a duplicate is told to retry rather than given the `202`.
   */
  settling_until?: number;
}

/** Powertools' record design: claim IN_PROGRESS with its own expiry, then store the response. */
export interface IdempotencyStore {
  /** claims the key; returns null on success, or the live record that holds it */
  claim(record: IdempotencyRecord, now: number): Promise<IdempotencyRecord | null>;
  /** stores the final answer (and ends any `settling_until`) */
  complete(scopeKey: string, lockToken: string, response: StoredResponse): Promise<void>;
  /** frees the key so the same request can be retried (after a 5xx or a 429) */
  release(scopeKey: string, lockToken: string): Promise<void>;
}

export interface RateLimitDecision {
  limit: number;
  remaining: number;
  /** epoch second at which the window resets */
  reset: number;
  allowed: boolean;
}

export interface RateLimitCounter {
  /** adds one hit to the counter and returns the new count */
  hit(counterKey: string, expiresAt: number): Promise<number>;
  /** the counter's current hits, read without writing (0 when absent) */
  read(counterKey: string): Promise<number>;
}

export interface RateLimitScope {
  orgId: string;
  livemode: boolean;
  plan: string;
  /** the counter drawn on: an inference route's slug, or the shared read bucket */
  bucket: string;
}

/** One fixed window of one (organisation, mode, bucket): the counter it draws on and its limit. */
export interface RateLimitWindow {
  counterKey: string;
  limit: number;
  /** epoch second at which the window resets */
  reset: number;
}

export interface RateLimitCheck {
  /** counts one request now and decides */
  check(clock: Clock, scope: RateLimitScope): Promise<RateLimitDecision>;
  /** true when this process already knows the window is spent (no write needed to refuse) */
  isExhausted(window: RateLimitWindow, clock: Clock): boolean;
  /** remembers the window as spent until its reset */
  markExhausted(window: RateLimitWindow): void;
  /** true when an admission should read the window's counter beside its transaction: this process has not in the last second */
  wantsCount(window: RateLimitWindow, clock: Clock): boolean;
  /** an admission committed its hit; `observed` is the counter as read beside it (null when not read) */
  admitted(window: RateLimitWindow, clock: Clock, observed: number | null): RateLimitDecision;
}
