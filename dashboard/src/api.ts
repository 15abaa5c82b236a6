import { AisError, type components, createAisClient, unwrap } from '../../client/src/browser.js';

// the lists the pages offer (scopes, statuses, slugs, roles, event types) are the OpenAPI document's enums
export {
  ENDPOINT_SLUGS,
  FAMILIES,
  FAMILY_DESCRIPTIONS,
  JOB_STATUSES,
  ROLES,
  WEBHOOK_EVENT_TYPES,
} from '../../client/src/browser.js';

/**
 * The dashboard calls the API through the typed client (`client/`): `/mgmt/v1` with the JWT kept
 * in sessionStorage (never in a URL query), `/v1` with the playground's test key.
 */
const TOKEN_KEY = 'ais.dashboard.token';
const PLAYGROUND_KEY = 'ais.dashboard.playground-key';

export type Schemas = components['schemas'];
export type DashboardJob = Schemas['DashboardJob'];
export { AisError, unwrap };

export function token(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function signIn(jwt: string): void {
  sessionStorage.setItem(TOKEN_KEY, jwt);
}

export function signOut(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** Every management operation, typed from the OpenAPI document: `unwrap(mgmt.GET('/mgmt/v1/organization'))`. */
export const mgmt = createAisClient({ baseUrl: location.origin, apiKey: () => token() ?? '' }).api;

/** The playground's test key: this tab only, gone when the tab closes. */
export function playgroundKey(): string | null {
  return sessionStorage.getItem(PLAYGROUND_KEY);
}

export function setPlaygroundKey(secret: string | null): void {
  if (secret) sessionStorage.setItem(PLAYGROUND_KEY, secret);
  else sessionStorage.removeItem(PLAYGROUND_KEY);
}

/** The `/v1` client of the playground, with its test key. */
export function inferenceClient(apiKey: string) {
  return createAisClient({ baseUrl: location.origin, apiKey });
}
