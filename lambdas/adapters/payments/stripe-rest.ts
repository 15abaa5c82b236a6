import { randomUUID } from 'node:crypto';

/**
 * The few Stripe REST calls the payment provider makes, over `fetch`: the official SDK weighs
 * about 250 KB minified, which alone put every billing Lambda over its 300 KB budget. Requests
 * are made as the SDK (stripe@23) made them: form-encoded bodies with bracketed keys, the API
 * version pinned, one `Idempotency-Key` per POST kept across its retries, and the SDK's retry
 * policy (connection errors, 409, 5xx or `Stripe-Should-Retry: true`; exponential back-off).
 */

/** The version stripe@23 pins; the fields read below are the same in it. Changing it is a deliberate upgrade. */
export const STRIPE_API_VERSION = '2026-10-28.endive';
export const STRIPE_API_BASE_URL = 'https://api.stripe.com';

export interface StripeRestOptions {
  secretKey: string;
  /** where the API is served; `https://api.stripe.com` unless a test points it at a local server */
  baseUrl?: string;
  /** per attempt */
  timeoutMs?: number;
  maxNetworkRetries?: number;
  /** the first back-off; it doubles per retry, capped at 5 s, with the SDK's jitter */
  initialRetryDelayMs?: number;
}

/** A Stripe answer other than 2xx after the retries; its message stays ours to log, never the caller's to read. */
export class StripeRequestError extends Error {
  constructor(
    readonly status: number,
    readonly stripeCode: string | null,
  ) {
    super(`Stripe answered ${status}${stripeCode ? ` (${stripeCode})` : ''}`);
  }
}

type FormValue = string | number | boolean | null | undefined | FormValue[] | { [key: string]: FormValue };

/** `application/x-www-form-urlencoded` the way Stripe reads it: `a[b][0][c]=…`, brackets left readable as the SDK leaves them. */
export function formEncode(data: Record<string, FormValue>): string {
  const pairs: string[] = [];
  const encode = (value: string) =>
    encodeURIComponent(value)
      .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%5B/g, '[')
      .replace(/%5D/g, ']');
  const add = (key: string, value: FormValue): void => {
    if (value === undefined) return;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) add(`${key}[${index}]`, item);
    } else if (value !== null && typeof value === 'object') {
      for (const [name, item] of Object.entries(value)) add(`${key}[${name}]`, item);
    } else {
      pairs.push(`${encode(key)}=${encode(value === null ? '' : String(value))}`);
    }
  };
  for (const [key, value] of Object.entries(data)) add(key, value);
  return pairs.join('&');
}

function shouldRetry(response: Response): boolean {
  const advice = response.headers.get('stripe-should-retry');
  if (advice === 'false') return false;
  if (advice === 'true') return true;
  return response.status === 409 || response.status >= 500;
}

export class StripeRest {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxNetworkRetries: number;
  private readonly initialRetryDelayMs: number;

  constructor(private readonly options: StripeRestOptions) {
    this.baseUrl = (options.baseUrl ?? STRIPE_API_BASE_URL).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxNetworkRetries = options.maxNetworkRetries ?? 2;
    this.initialRetryDelayMs = options.initialRetryDelayMs ?? 500;
  }

  get<T>(path: string, query: Record<string, FormValue>): Promise<T> {
    const search = formEncode(query);
    return this.request<T>('GET', search ? `${path}?${search}` : path, undefined);
  }

  post<T>(path: string, body: Record<string, FormValue>): Promise<T> {
    return this.request<T>('POST', path, formEncode(body));
  }

  /** The SDK's back-off: base × 2^(retry-1), capped at 5 s, jittered to [½, 1] of that, never under the base. */
  private retryDelayMs(retry: number): number {
    const capped = Math.min(this.initialRetryDelayMs * 2 ** (retry - 1), 5_000);
    return Math.max(this.initialRetryDelayMs, capped * 0.5 * (1 + Math.random()));
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body: string | undefined): Promise<T> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: `Bearer ${this.options.secretKey}`,
      'Stripe-Version': STRIPE_API_VERSION,
    };
    if (method === 'POST') {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      // one key for the call, so a retry of a request Stripe did receive is answered from Stripe's record, not done twice
      headers['Idempotency-Key'] = `ais-retry-${randomUUID()}`;
    }
    for (let retry = 0; ; retry++) {
      if (retry > 0) await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs(retry)));
      let response: Response;
      try {
        response = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers,
          body,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        // refused, reset or timed out: the request may not have reached Stripe; the key makes trying again safe
        if (retry < this.maxNetworkRetries) continue;
        throw error;
      }
      if (response.ok) return (await response.json()) as T;
      if (retry < this.maxNetworkRetries && shouldRetry(response)) {
        await response.body?.cancel();
        continue;
      }
      const answer = (await response.json().catch(() => null)) as { error?: { code?: unknown; type?: unknown } } | null;
      const code = answer?.error?.code ?? answer?.error?.type;
      throw new StripeRequestError(response.status, typeof code === 'string' ? code : null);
    }
  }
}
