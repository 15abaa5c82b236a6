import type { ErrorCode } from '../../domain/kernel/errors.js';
import type { RouteDefinition } from './define.js';

const AUTH_CODES: Record<RouteDefinition['auth'], readonly ErrorCode[]> = {
  api_key: ['invalid_api_key', 'rate_limit_exceeded'],
  jwt: ['invalid_token', 'scope_not_granted', 'service_unavailable'],
  signature: ['invalid_signature', 'service_unavailable'],
  none: [],
};
const IDEMPOTENCY_CODES: readonly ErrorCode[] = [
  'parameter_invalid',
  'idempotency_key_reuse',
  'idempotency_key_in_use',
];
const QUERY_CODES: readonly ErrorCode[] = ['parameter_invalid', 'parameter_unknown', 'parameter_missing'];
const BODY_CODES: readonly ErrorCode[] = [
  'invalid_json',
  'unsupported_media_type',
  'parameter_invalid',
  'parameter_missing',
  'parameter_unknown',
];

/**
 * Whether a POST route runs Idempotency-Key handling: it declares the middleware, or it is an
 * inference call, whose admission runs it in its transaction (domain/jobs/admission.ts).
 */
export function takesIdempotencyKey(route: RouteDefinition): boolean {
  return (
    route.method === 'POST' &&
    (route.slug !== undefined ||
      route.middleware.includes('idempotency') ||
      route.middleware.includes('idempotency-without-secret'))
  );
}

/**
 * Every error code a route can answer: what its pipeline answers (authentication, rate limits,
 * Idempotency-Key, validation of what it declares, body size) plus what its own work declares.
 * The OpenAPI document's error responses are computed from this, never kept by hand.
 */
export function errorCodesOf(route: RouteDefinition): ErrorCode[] {
  const codes = new Set<ErrorCode>(AUTH_CODES[route.auth]);
  if (takesIdempotencyKey(route)) for (const code of IDEMPOTENCY_CODES) codes.add(code);
  if (route.params) codes.add(route.notFound ?? 'resource_not_found');
  if (route.query) for (const code of QUERY_CODES) codes.add(code);
  // an undeclared query parameter or body field is refused, not ignored (implement.ts, refuseUndeclared)
  else if (route.auth === 'api_key' || route.auth === 'jwt') codes.add('parameter_unknown');
  if (route.body) for (const code of BODY_CODES) codes.add(code);
  if (route.method !== 'GET') codes.add('request_too_large');
  for (const code of route.errors) codes.add(code);
  codes.add('internal_error');
  return [...codes];
}
