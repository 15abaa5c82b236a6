/** The error `type`s of the API (docs/jobs-and-credits.md, "Errors"); a client branches on these, never on a code it does not know. */
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

export interface ErrorBody {
  type: string;
  code: string;
  message: string;
  param: string | null;
  doc_url: string;
  request_id: string;
}

/** A non-2xx answer, as its error envelope. */
export class AisError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  readonly param: string | null;
  readonly docUrl: string;
  readonly requestId: string;
  /** seconds to wait (429 and some 409s): the IETF `RateLimit` field's `t` when the window is spent, else `Retry-After` */
  readonly retryAfter: number | null;

  constructor(status: number, body: ErrorBody, retryAfter: number | null) {
    super(body.message);
    this.name = 'AisError';
    this.status = status;
    // a new type is handled as the closest known one: `internal`
    this.type = (ERROR_TYPES as readonly string[]).includes(body.type) ? (body.type as ErrorType) : 'internal';
    this.code = body.code;
    this.param = body.param;
    this.docUrl = body.doc_url;
    this.requestId = body.request_id;
    this.retryAfter = retryAfter;
  }

  /** The code if this client knows it, else the type: code your branches against this (docs/jobs-and-credits.md, "Errors"). */
  kind(known: readonly string[]): string {
    return known.includes(this.code) ? this.code : this.type;
  }
}
