import { displayPrefix, hashSecret, newSecret } from './api-keys.js';
import { FAMILIES } from '../catalogue/catalogue.js';
import { epochSeconds } from '../kernel/clock.js';
import { depositCredits } from '../money/credits.js';
import type { Services } from '../ports/services.js';
import { randomId } from '../kernel/ids.js';
import { organizationNotFound } from './organization-view.js';
import type { ApiKeyRecord, Organization } from '../ports/stores.js';

export interface NewOrganization {
  name: string;
  plan?: string;
  billingCountry?: string;
  startingCredits?: { live: number; test: number };
}

export interface SeededOrganization {
  organization: Organization;
  liveKey: string;
  testKey: string;
}

/** Creates an API key and returns its secret, which is never stored or shown again. */
export async function createApiKey(
  services: Services,
  orgId: string,
  options: { name: string; livemode: boolean; scopes?: ApiKeyRecord['scopes']; expiresInSeconds?: number },
): Promise<{ key: ApiKeyRecord; secret: string }> {
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
  };
  if (!(await services.accounts.putApiKey(key, hashSecret(secret)))) throw organizationNotFound(orgId);
  return { key, secret };
}

/** An organisation with both balances funded through the ledger and one key per mode. */
export async function createOrganization(services: Services, input: NewOrganization): Promise<SeededOrganization> {
  const organization: Organization = {
    id: randomId('org'),
    name: input.name,
    plan: input.plan ?? 'free',
    billing_country: input.billingCountry ?? 'DE',
    storage_retention_days: 30,
    created: epochSeconds(services.clock),
  };
  await services.accounts.putOrganization(organization);
  await services.webhooks.openEndpointCount(organization.id);
  const credits = input.startingCredits ?? { live: 10_000, test: 10_000 };
  for (const livemode of [true, false]) {
    await services.accounts.openBalance(organization.id, livemode);
    const amount = livemode ? credits.live : credits.test;
    if (amount > 0) await depositCredits(services, organization.id, livemode, amount, 'starting_credits');
  }
  const live = await createApiKey(services, organization.id, { name: 'Default live key', livemode: true });
  const test = await createApiKey(services, organization.id, { name: 'Default test key', livemode: false });
  return { organization, liveKey: live.secret, testKey: test.secret };
}
