import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { ERROR_CODES, type ErrorCode } from '../lambdas/domain/kernel/errors.js';
import { COMMON_SECURITY_HEADERS } from '../lambdas/http/security-headers.js';
import { INTEGRATION_TIMEOUT_MESSAGE } from './wait-ceiling.js';

/**
 * Errors API Gateway answers by itself, before any Lambda runs (an unknown path is not one: the
 * catch-all route's function answers it). Each is reshaped into the error envelope
 * (docs/internals/jobs-and-credits.md, "Errors") and carries the security headers of the functions' answers,
 * and `Request-Id` and `request_id` both hold API Gateway's own request id, so that clients parse
 * one shape, whoever answered (docs/internals/deploy.md, "Errors API Gateway answers itself"). (Not the
 * Content-Security-Policy: its quoted keywords cannot be written inside API Gateway's quoted static
 * values; through CloudFront, the distribution adds it.)
 */
export interface GatewayError {
  type: ResponseType;
  code: ErrorCode;
  /** omitted: keep the status API Gateway chose (the DEFAULT_* catch-alls cover several) */
  status?: string;
  /** extra static headers */
  headers?: Record<string, string>;
  /** instead of the code's own message, where that would not be true of this answer */
  message?: string;
}

export const GATEWAY_ERRORS: readonly GatewayError[] = [
  { type: ResponseType.DEFAULT_4XX, code: 'invalid_request' },
  { type: ResponseType.DEFAULT_5XX, code: 'internal_error' },
  // without an authorizer this is what a method a resource does not have produces (a 403 by default)
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, code: 'route_not_found', status: '404' },
  { type: ResponseType.RESOURCE_NOT_FOUND, code: 'route_not_found', status: '404' },
  { type: ResponseType.UNAUTHORIZED, code: 'invalid_api_key', status: '401' },
  { type: ResponseType.ACCESS_DENIED, code: 'scope_not_granted', status: '403' },
  // 400 like every oversized body the functions refuse (docs/internals/uploads.md, "Oversized bodies"). A gateway response
  // cannot tell which route or field it refuses, so it cannot say file_too_large: see docs/internals/deploy.md
  { type: ResponseType.REQUEST_TOO_LARGE, code: 'request_too_large', status: '400' },
  { type: ResponseType.THROTTLED, code: 'rate_limit_exceeded', status: '429', headers: { 'Retry-After': '1' } },
  // 504 rather than 500: the function may still finish (and a job may have been admitted)
  {
    type: ResponseType.INTEGRATION_TIMEOUT,
    code: 'internal_error',
    status: '504',
    message: INTEGRATION_TIMEOUT_MESSAGE,
  },
];

/**
 * The body template: the envelope with `$context.requestId` substituted by API Gateway
 * (gateway response templates are not run through VTL, but `$context` variables are filled in).
 * Unprefixed, as the `Request-Id` header must be: a header mapping cannot add a prefix.
 */
export function envelopeTemplate(code: ErrorCode, docsUrl: string, message?: string): string {
  const definition = ERROR_CODES[code];
  return JSON.stringify({
    error: {
      type: definition.type,
      code,
      message: message ?? definition.message,
      param: null,
      doc_url: `${docsUrl}/errors/${code}`,
      request_id: '$context.requestId',
    },
  });
}

/** The header every answer carries its request id in, and the mapping that fills it with API Gateway's own. */
const REQUEST_ID_HEADER = 'Request-Id';
const REQUEST_ID_MAPPING = 'context.requestId';

/** Static header values must be single-quoted in API Gateway's mapping syntax. */
function quoted(value: string): string {
  return `'${value}'`;
}

export function addGatewayResponses(api: RestApi, docsUrl: string): void {
  for (const error of GATEWAY_ERRORS) {
    api.addGatewayResponse(`GatewayResponse${error.type.responseType}`, {
      type: error.type,
      ...(error.status ? { statusCode: error.status } : {}),
      responseHeaders: {
        ...Object.fromEntries(
          Object.entries({ ...COMMON_SECURITY_HEADERS, 'Content-Type': 'application/json', ...error.headers }).map(
            ([name, value]) => [name, quoted(value)],
          ),
        ),
        // a context variable, unquoted: the request id the body's request_id holds
        [REQUEST_ID_HEADER]: REQUEST_ID_MAPPING,
      },
      templates: { 'application/json': envelopeTemplate(error.code, docsUrl, error.message) },
    });
  }
}
