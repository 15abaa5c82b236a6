/**
 * The one table of error codes. Status, type and default message come from here, so the
 * HTTP layer, the OpenAPI document and the docs pages cannot drift apart.
 */
export const ERROR_TYPES = [
  'invalid_request',
  'authentication',
  'permission',
  'rate_limit',
  'insufficient_credits',
  'not_found',
  'conflict',
  'processing_error',
  'internal',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

interface ErrorCodeDefinition {
  status: number;
  type: ErrorType;
  message: string;
}

export const ERROR_CODES = {
  invalid_request: { status: 400, type: 'invalid_request', message: 'The request is invalid.' },
  invalid_json: { status: 400, type: 'invalid_request', message: 'The request body is not valid JSON.' },
  invalid_multipart: { status: 400, type: 'invalid_request', message: 'The multipart body could not be parsed.' },
  unsupported_media_type: {
    status: 400,
    type: 'invalid_request',
    message: 'Send application/json or multipart/form-data.',
  },
  parameter_invalid: { status: 400, type: 'invalid_request', message: 'A parameter has an invalid value.' },
  parameter_missing: { status: 400, type: 'invalid_request', message: 'A required parameter is missing.' },
  parameter_unknown: { status: 400, type: 'invalid_request', message: 'The request contains an unknown parameter.' },
  parameters_exclusive: {
    status: 400,
    type: 'invalid_request',
    message: 'Two mutually exclusive parameters were supplied; send only one of them.',
  },
  url_not_public: {
    status: 400,
    type: 'invalid_request',
    message:
      'The URL must be a public https address: no credentials, and no private, loopback, link-local or internal host.',
  },
  missing_input: { status: 400, type: 'invalid_request', message: 'No input was supplied.' },
  too_many_files: { status: 400, type: 'invalid_request', message: 'Too many files were supplied.' },
  file_too_large: { status: 400, type: 'invalid_request', message: 'A file exceeds the 10 MB limit.' },
  json_encoding_required: {
    status: 400,
    type: 'invalid_request',
    message: 'This endpoint takes its input only as JSON input_ref / input_refs from POST /v1/uploads.',
  },
  wait_not_supported: { status: 400, type: 'invalid_request', message: 'wait=true is not supported by this endpoint.' },
  test_scenario_not_supported: {
    status: 400,
    type: 'invalid_request',
    message: 'The test scenario is unknown or not supported by this endpoint.',
  },
  endpoint_not_available: {
    status: 400,
    type: 'invalid_request',
    message: 'This endpoint is planned and not available yet; see GET /v1/endpoints.',
  },
  upload_not_found: {
    status: 400,
    type: 'invalid_request',
    message: 'No uploaded object exists for this upload reference.',
  },
  invalid_api_key: {
    status: 401,
    type: 'authentication',
    message: 'The API key is missing, malformed, revoked or expired.',
  },
  invalid_token: { status: 401, type: 'authentication', message: 'The bearer token is missing, malformed or expired.' },
  invalid_signature: {
    status: 401,
    type: 'authentication',
    message: 'The request signature is missing, invalid or too old.',
  },
  insufficient_credits: {
    status: 402,
    type: 'insufficient_credits',
    message: 'The balance cannot cover the reservation for this call.',
  },
  spend_limit_exceeded: {
    status: 402,
    type: 'insufficient_credits',
    message: 'The reservation for this call would take the API key past its spend limit for the period.',
  },
  scope_not_granted: {
    status: 403,
    type: 'permission',
    message: 'The credential is not allowed to perform this operation.',
  },
  job_not_found: { status: 404, type: 'not_found', message: 'No such job.' },
  api_key_not_found: { status: 404, type: 'not_found', message: 'No such API key.' },
  route_not_found: { status: 404, type: 'not_found', message: 'No such route.' },
  resource_not_found: { status: 404, type: 'not_found', message: 'No such resource.' },
  webhook_endpoint_not_found: { status: 404, type: 'not_found', message: 'No such webhook endpoint.' },
  event_not_found: { status: 404, type: 'not_found', message: 'No such event.' },
  member_not_found: { status: 404, type: 'not_found', message: 'No such member.' },
  batch_not_found: { status: 404, type: 'not_found', message: 'No such batch.' },
  malformed_request: { status: 400, type: 'invalid_request', message: 'The HTTP request could not be parsed.' },
  method_not_allowed: { status: 405, type: 'invalid_request', message: 'The method is not allowed on this route.' },
  job_not_cancelable: { status: 409, type: 'conflict', message: 'Only a queued job can be canceled.' },
  job_not_redactable: {
    status: 409,
    type: 'conflict',
    message: 'Only a settled job can be redacted, and an inspection’s stage only with its inspection.',
  },
  batch_not_cancelable: {
    status: 409,
    type: 'conflict',
    message: 'The batch is finished; only a validating or running batch can be canceled.',
  },
  job_not_processing: {
    status: 409,
    type: 'conflict',
    message: 'The job has not been handed to the inference plane yet; retry the callback shortly.',
  },
  api_key_revoked: { status: 409, type: 'conflict', message: 'This API key is revoked; revocation is irreversible.' },
  idempotency_key_reuse: {
    status: 409,
    type: 'conflict',
    message: 'This Idempotency-Key was used with a different request.',
  },
  idempotency_key_in_use: {
    status: 409,
    type: 'conflict',
    message: 'A request with this Idempotency-Key is still being processed.',
  },
  last_owner: {
    status: 409,
    type: 'conflict',
    message: 'An organisation keeps at least one owner: make another member owner first.',
  },
  member_already_exists: {
    status: 409,
    type: 'conflict',
    message: 'This person is already a member of an organisation.',
  },
  upload_already_consumed: {
    status: 409,
    type: 'conflict',
    message: 'This upload reference was already used by another job.',
  },
  // 400, not 413: oversized input is 400 invalid_request (docs/internals/uploads.md, "Oversized bodies")
  request_too_large: { status: 400, type: 'invalid_request', message: 'The request body is too large.' },
  headers_too_large: { status: 431, type: 'invalid_request', message: 'The request headers are too large.' },
  rate_limit_exceeded: { status: 429, type: 'rate_limit', message: 'Too many requests for this endpoint and plan.' },
  internal_error: {
    status: 500,
    type: 'internal',
    message: 'An internal error occurred. The request was not billed; retry with the same Idempotency-Key.',
  },
  service_unavailable: { status: 503, type: 'internal', message: 'The service is temporarily unavailable.' },
} as const satisfies Record<string, ErrorCodeDefinition>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** A fixed rate-limit window as a caller sees it. */
export interface RateWindow {
  limit: number;
  remaining: number;
  /** epoch second at which the window resets */
  reset: number;
  /** seconds from now until it resets */
  resetsIn: number;
  /** the window's length in seconds */
  length: number;
}

/**
 * What a refusal tells the caller about trying again, in the domain's terms; the HTTP layer states it
 * in headers (lambdas/http/retry-headers.ts, docs/internals/idempotency-and-rate-limits.md).
 */
export interface RetryAdvice {
  /** seconds after which the same call can succeed */
  afterSeconds?: number;
  /** the rate-limit window the call was counted in */
  window?: RateWindow;
}

/** A failure the caller can act on; anything else becomes a generic 500. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  constructor(
    readonly code: ErrorCode,
    readonly param: string | null = null,
    message?: string,
    readonly retry: RetryAdvice = {},
  ) {
    super(message ?? ERROR_CODES[code].message);
    this.status = ERROR_CODES[code].status;
    this.type = ERROR_CODES[code].type;
  }
}

/** An error's wire form (docs/internals/jobs-and-credits.md, "Errors"): what a refusal answers, and what a stored refusal replays. */
export interface ErrorEnvelope {
  error: { type: string; code: string; message: string; param: string | null; doc_url: string; request_id: string };
}

export function errorEnvelope(
  code: ErrorCode,
  requestId: string,
  docsUrl: string,
  param: string | null = null,
  message?: string,
): ErrorEnvelope {
  const definition = ERROR_CODES[code];
  return {
    error: {
      type: definition.type,
      code,
      message: message ?? definition.message,
      param,
      doc_url: `${docsUrl}/errors/${code}`,
      request_id: requestId,
    },
  };
}
