import type { EndpointSlug } from '../catalogue/catalogue.js';
import { ApiError } from '../kernel/errors.js';

export const USAGE_COUNTERS = [
  'requests',
  'succeeded',
  'failed',
  'expired',
  'canceled',
  'billable_units',
  'credits_charged',
] as const;
export type UsageCounter = (typeof USAGE_COUNTERS)[number];

/** One row per (day, endpoint, mode), the usage record (docs/internals/management.md). */
export interface UsageRow extends Record<UsageCounter, number> {
  date: string;
  endpoint: EndpointSlug;
  livemode: boolean;
}

/**
 * The UTC day a job counts on. Every counter of a job lands on the day it was created, when the
 * job settles, so a row always reads `requests = succeeded + failed + expired + canceled`.
 */
export function usageDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10);
}

/** Newest day first, then endpoint A→Z, then live before test. */
export function compareUsageRows(a: UsageRow, b: UsageRow): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  if (a.endpoint !== b.endpoint) return a.endpoint < b.endpoint ? -1 : 1;
  return Number(b.livemode) - Number(a.livemode);
}

const DAY_MS = 86_400_000;
export const DEFAULT_USAGE_DAYS = 30;
export const MAX_USAGE_DAYS = 366;

/** The inclusive day window of a usage query: default the last 30 days up to today (UTC), at most 366 days. */
export function usageWindow(nowMs: number, from?: string, to?: string): { from: string; to: string } {
  const end = to ?? new Date(nowMs).toISOString().slice(0, 10);
  const start = from ?? new Date(Date.parse(end) - (DEFAULT_USAGE_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  if (start > end) throw new ApiError('parameter_invalid', 'from', '`from` must not be after `to`.');
  if ((Date.parse(end) - Date.parse(start)) / DAY_MS + 1 > MAX_USAGE_DAYS)
    throw new ApiError('parameter_invalid', 'from', `A usage query spans at most ${MAX_USAGE_DAYS} days.`);
  return { from: start, to: end };
}
