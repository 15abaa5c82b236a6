import type { Clock } from '../kernel/clock.js';
import type { Organization } from '../ports/access.js';

/**
 * The storage retention an organisation can have, in days (docs/internals/data-retention.md). The bucket's
 * lifecycle rules expire objects at `max` as a backstop (lib/data.ts). A module of its own, free of
 * imports, so schemas and the CDK app can read it without the retention pass.
 */
export const STORAGE_RETENTION_DAYS = { default: 30, min: 1, max: 365 } as const;

const DAY_MS = 86_400_000;

/** The moment before which the organisation's data is older than its retention. */
export function retentionCutoffMs(clock: Clock, organization: Pick<Organization, 'storage_retention_days'>): number {
  return clock.nowMs() - organization.storage_retention_days * DAY_MS;
}
