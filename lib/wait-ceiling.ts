/** A deploy-time setting (`-c name=value`) that cannot work: `bin/app.ts` prints its message alone and exits 1. */
export class SettingError extends Error {
  override name = 'SettingError';
}

/** API Gateway's default integration timeout of a REST API; more needs a raised account quota. */
export const DEFAULT_INTEGRATION_TIMEOUT_SECONDS = 29;

/** What the stack's INTEGRATION_TIMEOUT gateway response says (a 504), and the local API adapter with it. */
export const INTEGRATION_TIMEOUT_MESSAGE =
  'The service did not answer in time; the request may still have been carried out. List or retrieve your jobs, or retry with the same Idempotency-Key.';

/** The longest a Lambda function may run, so the longest integration timeout a function can fill. */
const LAMBDA_MAX_TIMEOUT_SECONDS = 900;

/** The wait ceiling `wait=true` promises (docs/internals/jobs-and-credits.md), when the integration allows it. */
const FULL_CEILING_SECONDS = 30;

/** A function behind a route times out this much before its integration, so the answer is always the service's own. */
export const FUNCTION_MARGIN_SECONDS = 1;

/** CloudFront's longest origin read timeout without a quota increase. */
const CLOUDFRONT_MAX_READ_TIMEOUT_SECONDS = 60;

export interface WaitCeiling {
  /** integration timeout of the inference routes; the function serving them times out a second before */
  integrationTimeoutSeconds: number;
  /** how long `wait=true` holds the connection: the function reads it from `WAIT_CEILING_SECONDS` */
  ceilingSeconds: number;
}

/**
 * Without `-c integrationTimeoutSeconds`, API Gateway's 29 s leaves room for a 28 s function and a
 * 27 s ceiling. With it (32 s or more: the full 30 s, a second to answer, the function's second
 * before the integration), the ceiling is 30 s.
 */
export function waitCeiling(integrationTimeoutSeconds?: number): WaitCeiling {
  if (integrationTimeoutSeconds === undefined)
    return {
      integrationTimeoutSeconds: DEFAULT_INTEGRATION_TIMEOUT_SECONDS,
      ceilingSeconds: DEFAULT_INTEGRATION_TIMEOUT_SECONDS - FUNCTION_MARGIN_SECONDS - 1,
    };
  const n = integrationTimeoutSeconds;
  const least = FULL_CEILING_SECONDS + 1 + FUNCTION_MARGIN_SECONDS;
  if (!Number.isInteger(n) || n < least || n > LAMBDA_MAX_TIMEOUT_SECONDS + FUNCTION_MARGIN_SECONDS) {
    throw new SettingError(
      `integrationTimeoutSeconds=${String(n)} is not usable: give a whole number of seconds from ${least} to ${LAMBDA_MAX_TIMEOUT_SECONDS + FUNCTION_MARGIN_SECONDS} ` +
        `(the 30 s wait ceiling, time to answer, and the function's second under the integration), after raising the account's API Gateway integration timeout quota; ` +
        `without the option the integration timeout stays at ${DEFAULT_INTEGRATION_TIMEOUT_SECONDS} s and the ceiling at ${DEFAULT_INTEGRATION_TIMEOUT_SECONDS - FUNCTION_MARGIN_SECONDS - 1} s.`,
    );
  }
  return { integrationTimeoutSeconds: n, ceilingSeconds: FULL_CEILING_SECONDS };
}

/** The timeout of a function behind routes: what its routes need, under its integration timeout. */
export function routeFunctionTimeoutSeconds(wantedSeconds: number, integrationTimeoutSeconds: number): number {
  return Math.min(wantedSeconds, integrationTimeoutSeconds - FUNCTION_MARGIN_SECONDS);
}

/** CloudFront's read timeout of the API origin: the integration's, up to CloudFront's 60 s. */
export function apiOriginReadTimeoutSeconds(wait: WaitCeiling): number {
  return Math.min(wait.integrationTimeoutSeconds, CLOUDFRONT_MAX_READ_TIMEOUT_SECONDS);
}
