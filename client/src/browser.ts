/** The client without `node:` imports, for browsers and bundlers (the package's `browser` condition). */
export {
  createAisClient,
  MIN_POLL_INTERVAL_MS,
  unwrap,
  type ClientOptions,
  type Job,
  type JobInput,
  type JobOf,
  type JobSlug,
  type Redaction,
  type WaitOptions,
} from './client.js';
export type { components, paths } from './client.js';
export { AisError, type ErrorBody, type ErrorCode, type ErrorType } from './errors.js';
// the values of the document's named enums: ERROR_TYPES, ERROR_CODES, WEBHOOK_EVENT_TYPES, FAMILIES, ENDPOINT_SLUGS, JOB_STATUSES, ROLES
export * from './generated/enums.js';
export { API_VERSION } from './generated/api-version.js';
