import { FAMILIES } from '../catalogue/catalogue.js';
import { STORAGE_RETENTION_DAYS } from '../erasure/retention-period.js';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import { randomId } from '../kernel/ids.js';
import { accountEntry } from '../money/credits.js';
import type { ApiKeyRecord, Organization, SpendLimit } from '../ports/access.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused } from '../ports/transactions.js';
import { displayPrefix, hashSecret, newSecret } from './api-keys.js';
import type { MemberRecord } from './member.js';
import { seedUserId } from './members.js';
import { normalizeEmail, type PublicMember, presentMember } from './memberships.js';
import { organizationNotFound, type PublicOrganization, presentOrganization } from './organization-view.js';

/** The plans, lowest first: a sign-up starts on the first. */
export const PLANS = ['free', 'pro', 'enterprise'] as const;

/** What a sign-up or `npm run admin -- create-organization` starts with: test credits only. */
export const SIGN_UP_CREDITS = { live: 0, test: 10_000 } as const;

export interface NewOrganization {
  name: string;
  plan?: string;
  billingCountry?: string;
  startingCredits?: { live: number; test: number };
  /**
   * The founding owner. `id`: the member id an identity provider's tokens will name (a Cognito
   * user's); default a stable id derived from the organisation (the one the local issuer signs for).
   */
  owner?: { email?: string | null; id?: string };
}

export interface CreatedOrganization {
  organization: Organization;
  owner: MemberRecord;
}

export interface SeededOrganization extends CreatedOrganization {
  liveKey: string;
  testKey: string;
}

function newApiKey(
  services: Services,
  orgId: string,
  options: {
    name: string;
    livemode: boolean;
    scopes?: ApiKeyRecord['scopes'];
    expiresInSeconds?: number;
    spendLimit?: SpendLimit | null;
  },
) {
  const secret = newSecret(options.livemode);
  const created = epochSeconds(services.clock);
  const key: ApiKeyRecord = {
    id: randomId('key'),
    org_id: orgId,
    name: options.name,
    livemode: options.livemode,
    prefix: displayPrefix(secret),
    scopes: [...(options.scopes ?? FAMILIES)],
    created,
    last_used_at: null,
    revoked_at: null,
    expires_at: options.expiresInSeconds === undefined ? null : created + options.expiresInSeconds,
    spend_limit: options.spendLimit ?? null,
  };
  return { key, secret, secretHash: hashSecret(secret) };
}

/** Creates an API key and returns its secret, which is never stored or shown again. */
export async function createApiKey(
  services: Services,
  orgId: string,
  options: {
    name: string;
    livemode: boolean;
    scopes?: ApiKeyRecord['scopes'];
    expiresInSeconds?: number;
    spendLimit?: SpendLimit | null;
  },
): Promise<{ key: ApiKeyRecord; secret: string }> {
  const { key, secret, secretHash } = newApiKey(services, orgId, options);
  if (!(await services.accounts.putApiKey(key, secretHash))) throw organizationNotFound(orgId);
  return { key, secret };
}

/**
 * The organisation, its balances funded through the ledger, its founding owner and (optionally)
 * one key per mode, in one transaction: a crash leaves either all of it or nothing. Null when the
 * owner already belongs to an organisation (nothing is written).
 */
async function openOrganization(
  services: Services,
  input: NewOrganization,
  keyNames: { live: string; test: string } | null,
) {
  const created = epochSeconds(services.clock);
  const organization: Organization = {
    id: randomId('org'),
    name: input.name,
    plan: input.plan ?? 'free',
    billing_country: input.billingCountry ?? 'DE',
    storage_retention_days: STORAGE_RETENTION_DAYS.default,
    created,
  };
  const owner: MemberRecord = {
    id: input.owner?.id ?? seedUserId(organization.id, 'owner'),
    org_id: organization.id,
    email: input.owner?.email ? normalizeEmail(input.owner.email) : null,
    role: 'owner',
    // a founder signs in with the organisation's creation (sign-up, or the admin tool's token)
    status: 'active',
    created,
  };
  const balances = input.startingCredits ?? { live: 10_000, test: 10_000 };
  const ledger = ([true, false] as const).flatMap((livemode) => {
    const amount = livemode ? balances.live : balances.test;
    return amount > 0
      ? [
          accountEntry(services, {
            orgId: organization.id,
            livemode,
            kind: 'deposit',
            amount,
            reference: 'starting_credits',
          }),
        ]
      : [];
  });
  const keys = keyNames
    ? {
        live: newApiKey(services, organization.id, { name: keyNames.live, livemode: true }),
        test: newApiKey(services, organization.id, { name: keyNames.test, livemode: false }),
      }
    : null;
  const written = await services.accounts.createOrganization({
    organization,
    balances,
    ledger,
    apiKeys: keys ? [keys.live, keys.test] : [],
    owner,
  });
  return written ? { organization, owner, keys } : null;
}

/** An organisation with both balances funded through the ledger, its owner, and one key per mode. */
export async function createOrganization(services: Services, input: NewOrganization): Promise<SeededOrganization> {
  const opened = await openOrganization(services, input, { live: 'Default live key', test: 'Default test key' });
  if (!opened?.keys) throw new Error(`the owner ${input.owner?.id} already belongs to an organisation`);
  return {
    organization: opened.organization,
    owner: opened.owner,
    liveKey: opened.keys.live.secret,
    testKey: opened.keys.test.secret,
  };
}

/**
 * A sign-up: an organisation on the lowest plan with test credits and its owner, and no API key
 * (nobody would ever see its secret: the owner creates keys in the dashboard). Signing up twice as
 * the same person (a retried Cognito trigger) creates one organisation: the second answers null.
 */
export async function signUpOrganization(
  services: Services,
  input: { name: string; ownerEmail: string; ownerId?: string },
): Promise<CreatedOrganization | null> {
  const opened = await openOrganization(
    services,
    {
      name: input.name,
      plan: PLANS[0],
      startingCredits: SIGN_UP_CREDITS,
      owner: { email: input.ownerEmail, ...(input.ownerId ? { id: input.ownerId } : {}) },
    },
    null,
  );
  return opened && { organization: opened.organization, owner: opened.owner };
}

/**
 * The local sign-up (`/dashboard/signup`): an organisation on the lowest plan with test credits,
 * its owner, and the owner's sign-in link. Only where the service signs people in itself; on AWS
 * Cognito's hosted UI signs people up and its post-confirmation trigger creates the organisation.
 */
export async function signUpLocally(
  services: Services,
  input: { organizationName: string; email: string },
): Promise<{ object: 'sign_up'; organization: PublicOrganization; member: PublicMember; login_url: string }> {
  if (services.identity.signInOptions().provider !== 'local')
    throw new ApiError(
      'route_not_found',
      null,
      'Sign-up here is the local runtime’s; sign up through the configured identity provider.',
    );
  const created = await signUpOrganization(services, { name: input.organizationName, ownerEmail: input.email });
  // a fresh random owner id cannot already belong to an organisation
  if (!created) throw new Error('a new owner already belonged to an organisation');
  const loginUrl = await services.identity.signInLink(created.owner);
  if (!loginUrl) throw new Error('the local identity provider gave no sign-in link');
  return {
    object: 'sign_up',
    organization: await presentOrganization(services, created.organization.id),
    member: presentMember(created.owner),
    login_url: loginUrl,
  };
}

/**
 * How long the organisation's files and results are kept (`npm run admin -- set-retention`): from
 * `STORAGE_RETENTION_DAYS.min` to `.max` days; the next retention pass applies it. Null when the
 * organisation does not exist.
 */
export async function setStorageRetention(
  services: Services,
  orgId: string,
  days: number,
): Promise<Organization | null> {
  if (!Number.isInteger(days) || days < STORAGE_RETENTION_DAYS.min || days > STORAGE_RETENTION_DAYS.max) {
    throw new RangeError(
      `storage retention is a whole number of days from ${STORAGE_RETENTION_DAYS.min} to ${STORAGE_RETENTION_DAYS.max}, not ${days}`,
    );
  }
  try {
    await services.uow.commit([{ kind: 'updateOrganization', orgId, set: { storage_retention_days: days } }]);
  } catch (error) {
    if (error instanceof TransactionRefused) return null;
    throw error;
  }
  return services.accounts.getOrganization(orgId);
}
