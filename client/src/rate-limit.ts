/** The parameters of one policy item of a `RateLimit` field: `"default";r=0;t=42` → `{ r: 0, t: 42 }`. */
function policyItems(field: string): Array<Record<string, number>> {
  return field.split(',').map((item) =>
    Object.fromEntries(
      item
        .split(';')
        .slice(1)
        .map((parameter) => parameter.trim().split('=') as [string, string?])
        .filter(([, value]) => value !== undefined && /^\d+$/.test(value))
        .map(([name, value]) => [name, Number(value)]),
    ),
  );
}

/**
 * Seconds to wait before calling again, from a refused answer's headers: the IETF draft's
 * `RateLimit` field first (the longest `t` of a spent policy, `r=0`), then `Retry-After`
 * (delta-seconds), then the legacy `RateLimit-Reset` (an epoch second) when `RateLimit-Remaining`
 * is 0. `null` when none says.
 */
export function retryAfterSeconds(headers: Headers, nowMs: number = Date.now()): number | null {
  const field = headers.get('ratelimit');
  if (field !== null) {
    const spent = policyItems(field).filter((item) => item.r === 0 && item.t !== undefined);
    if (spent.length) return Math.max(...spent.map((item) => item.t!));
  }
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) return Number(retryAfter);
  const reset = headers.get('ratelimit-reset');
  if (reset !== null && headers.get('ratelimit-remaining') === '0' && /^\d+$/.test(reset))
    return Math.max(0, Number(reset) - Math.floor(nowMs / 1000));
  return null;
}
