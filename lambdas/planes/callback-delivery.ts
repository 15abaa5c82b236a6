import { setTimeout as delay } from 'node:timers/promises';
import { type Clock, epochSeconds } from '../domain/kernel/clock.js';
import { INFERENCE_SIGNATURE_HEADER, signatureHeader } from '../domain/kernel/signatures.js';
import type { CompletionCallback } from '../schemas/completions.js';
import { RETRIED_CALLBACK_STATUSES } from '../schemas/inference-plane.js';

// How the bundled planes (reference and fixture) report a job: the signed completion callback, tried again with backoff.

/** Attempts at a callback, and the backoff between them: 0.2 s, doubling, at most 2 s. */
export const CALLBACK_ATTEMPTS = 8;
const backoffMs = (attempt: number) => Math.min(100 * 2 ** attempt, 2000);

export interface DeliveryOptions {
  secret: string;
  clock: Clock;
  signal?: AbortSignal;
  maxAttempts?: number;
}

/**
 * POSTs the callback to `callbackUrl`, signed and dated at each attempt, until it is recorded
 * (2xx): a 409 (the service has not recorded the hand-over yet), 429, 5xx or no answer is tried
 * again with backoff (`CALLBACK_ATTEMPTS` in all); anything else, or running out of attempts, throws.
 */
export async function deliverCompletion(
  callbackUrl: string,
  completion: CompletionCallback,
  options: DeliveryOptions,
): Promise<void> {
  const body = JSON.stringify(completion);
  const maxAttempts = options.maxAttempts ?? CALLBACK_ATTEMPTS;
  for (let attempt = 1; ; attempt += 1) {
    const status = await fetch(callbackUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        [INFERENCE_SIGNATURE_HEADER]: signatureHeader(body, options.secret, epochSeconds(options.clock)),
      },
      body,
      redirect: 'manual',
      ...(options.signal ? { signal: options.signal } : {}),
    }).then(
      async (response) => {
        await response.body?.cancel();
        return response.status;
      },
      () => 0,
    );
    if (status >= 200 && status < 300) return;
    // no answer at all (0) is tried again like a server fault
    if ((status !== 0 && !RETRIED_CALLBACK_STATUSES.includes(status)) || attempt >= maxAttempts)
      throw new Error(`completion callback answered ${status || 'nothing'} after ${attempt} attempt(s)`);
    await delay(backoffMs(attempt), undefined, options.signal ? { signal: options.signal } : {});
  }
}
