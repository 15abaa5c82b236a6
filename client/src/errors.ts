import { ERROR_TYPES } from './generated/enums.js';
import type { components } from './generated/openapi.js';

/** The error `type`s of the API (docs/jobs-and-credits.md, "Errors"); a client branches on these, never on a code it does not know. */
export type ErrorType = components['schemas']['ErrorType'];
/** The error codes of the API version this client was generated from; a later version may add codes. */
export type ErrorCode = components['schemas']['ErrorCode'];
/** Why a job failed or expired (`job.error.code`, typed by it): a subset of `ErrorCode`; a later API version may add codes. */
export type JobErrorCode = components['schemas']['JobErrorCode'];

/** The envelope's `error` as it comes over the wire: a later API version may send a type or code not listed here. */
export type ErrorBody = Omit<components['schemas']['ErrorEnvelope']['error'], 'type' | 'code'> & {
  type: string;
  code: string;
};

/** A non-2xx answer, as its error envelope. */
export class AisError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  /** one of `ErrorCode`, or a code of a later API version */
  readonly code: ErrorCode | (string & {});
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
