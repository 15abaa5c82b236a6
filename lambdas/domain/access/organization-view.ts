import { ApiError } from '../kernel/errors.js';
import type { Services } from '../ports/services.js';

/** The organisation record as presented (docs/internals/management.md). Balances are the balance items, which always equal the sum of the ledger. */
export interface PublicOrganization {
  id: string;
  object: 'organization';
  name: string;
  plan: string;
  billing_country: string;
  storage_retention_days: number;
  balance: { live: number; test: number };
}

/** A token may name an organisation that does not exist: it reads nothing (`GET /organization` is this 404) and creates nothing. */
export function organizationNotFound(orgId: string): ApiError {
  return new ApiError('resource_not_found', null, `No such organisation: ${orgId}.`);
}

/** The organisation (of the caller's membership, or the one the admin tool names). */
export async function presentOrganization(services: Services, orgId: string): Promise<PublicOrganization> {
  const [org, live, test] = await Promise.all([
    services.accounts.getOrganization(orgId),
    services.accounts.getBalance(orgId, true),
    services.accounts.getBalance(orgId, false),
  ]);
  if (!org) throw organizationNotFound(orgId);
  return {
    id: org.id,
    object: 'organization',
    name: org.name,
    plan: org.plan,
    billing_country: org.billing_country,
    storage_retention_days: org.storage_retention_days,
    balance: { live, test },
  };
}
