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
export { AisError, ERROR_TYPES, type ErrorBody, type ErrorType } from './errors.js';
export { API_VERSION } from './generated/api-version.js';
