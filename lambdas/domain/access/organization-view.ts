import type { Services } from '../ports/services.js';
import { ApiError } from '../kernel/errors.js';
import type { Member } from './member.js';

/** The organisation record as presented (docs/management.md). Balances are the balance items, which always equal the sum of the ledger. */
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

/** The organisation named by the token's `org_id`. */
export async function presentOrganization(services: Services, member: Member): Promise<PublicOrganization> {
  const [org, live, test] = await Promise.all([
    services.accounts.getOrganization(member.orgId),
    services.accounts.getBalance(member.orgId, true),
    services.accounts.getBalance(member.orgId, false),
  ]);
  if (!org) throw organizationNotFound(member.orgId);
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
