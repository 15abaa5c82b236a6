/** The client without `node:` imports, for browsers and bundlers (the package's `browser` condition). */

export type { components, paths } from './client.js';
export {
  type Batch,
  type BatchLine,
  type BatchList,
  type ClientOptions,
  createAisClient,
  type Job,
  type JobInput,
  type JobOf,
  type JobSlug,
  MIN_POLL_INTERVAL_MS,
  type Quote,
  type Redaction,
  unwrap,
  type WaitOptions,
} from './client.js';
export { AisError, type ErrorBody, type ErrorCode, type ErrorType, type JobErrorCode } from './errors.js';
export { API_VERSION } from './generated/api-version.js';
// the values of the document's named enums: ERROR_TYPES, ERROR_CODES, WEBHOOK_EVENT_TYPES, FAMILIES, ENDPOINT_SLUGS, JOB_STATUSES, ROLES
export * from './generated/enums.js';
