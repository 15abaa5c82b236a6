import type { Family } from '../catalogue/catalogue.js';

/** The caller behind an inference-surface request. */
export interface Principal {
  orgId: string;
  apiKeyId: string;
  livemode: boolean;
  scopes: readonly Family[];
  /** the presented secret's hash: an admission re-checks it inside its transaction */
  secretHash?: string;
  /** taken from the principal cache without a read: only an admission's transaction may rely on it */
  provisional?: boolean;
}
