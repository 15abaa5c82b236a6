import { createHash } from 'node:crypto';

/** When the stored examples say they were created: 2026-08-01 12:00 UTC, the API version's day. */
const EXAMPLE_TIME = 1_785_585_600;
const TIME_KEYS = new Set(['created', 'started_at', 'completed_at', 'expires_at', 'redacted_at']);
const ID = /^([a-z]{2,5})_[1-9A-HJ-NP-Za-km-z]{8,40}$/;
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const API_ORIGIN = 'https://api.automotive-inference.example';
const FILES_ORIGIN = 'https://files.automotive-inference.example';

function stableId(prefix: string, n: number): string {
  const digest = createHash('sha256').update(`${prefix}:${n}`).digest();
  return `${prefix}_${Array.from(digest.subarray(0, 14), (byte) => BASE58[byte % 58]).join('')}`;
}

/**
 * A job as the runtime answered it, with what differs from run to run made stable, so that the
 * stored example changes only when the answer does: ids (the same id stays the same id), times
 * (shifted to one fixed day, their gaps kept), the runtime's address and signed file URLs (their
 * signature dropped). Everything else (results, credits, model versions) is as answered.
 */
export function stableExample(job: Record<string, unknown>, base: string): Record<string, unknown> {
  const created = typeof job.created === 'number' ? job.created : EXAMPLE_TIME;
  const ids = new Map<string, string>();
  const visit = (value: unknown, key: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => visit(item, key));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, visit(item, name)]));
    if (typeof value === 'number' && TIME_KEYS.has(key)) return EXAMPLE_TIME + (value - created);
    if (typeof value !== 'string') return value;
    const id = ID.exec(value);
    if (id) {
      if (!ids.has(value)) ids.set(value, stableId(id[1]!, ids.size));
      return ids.get(value);
    }
    if (value.startsWith(base)) return API_ORIGIN + value.slice(base.length);
    if (/^https?:\/\//.test(value)) {
      const url = new URL(value);
      return `${FILES_ORIGIN}${url.pathname.replace(/\/(job|org)_[^/]+/g, '/…')}${url.search ? '?X-Amz-Signature=…' : ''}`;
    }
    return value;
  };
  return visit(job, '') as Record<string, unknown>;
}
