import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from '../../../client/src/rate-limit.js';

const NOW_MS = 1_785_600_000_500;
const headers = (fields: Record<string, string>) => new Headers(fields);

describe("the client's back-off reads the IETF RateLimit field first", () => {
  it('takes t of the spent policy, even when Retry-After says otherwise', () => {
    expect(retryAfterSeconds(headers({ RateLimit: '"default";r=0;t=42', 'Retry-After': '7' }), NOW_MS)).toBe(42);
  });

  it('takes the longest t among spent policies, and ignores policies with calls left', () => {
    expect(
      retryAfterSeconds(headers({ RateLimit: '"default";r=0;t=5, "burst";r=0;t=9, "day";r=10;t=3600' }), NOW_MS),
    ).toBe(9);
  });

  it('falls back to Retry-After when the field is absent, not spent or unreadable', () => {
    expect(retryAfterSeconds(headers({ 'Retry-After': '3' }), NOW_MS)).toBe(3);
    expect(retryAfterSeconds(headers({ RateLimit: '"default";r=4;t=30', 'Retry-After': '3' }), NOW_MS)).toBe(3);
    expect(retryAfterSeconds(headers({ RateLimit: 'garbage', 'Retry-After': '3' }), NOW_MS)).toBe(3);
  });

  it('falls back to the legacy RateLimit-Reset of a spent window, then to nothing', () => {
    const reset = String(Math.floor(NOW_MS / 1000) + 17);
    expect(retryAfterSeconds(headers({ 'RateLimit-Remaining': '0', 'RateLimit-Reset': reset }), NOW_MS)).toBe(17);
    expect(retryAfterSeconds(headers({ 'RateLimit-Remaining': '5', 'RateLimit-Reset': reset }), NOW_MS)).toBeNull();
    expect(retryAfterSeconds(headers({}), NOW_MS)).toBeNull();
  });
});
