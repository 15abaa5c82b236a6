import type { Family } from '../catalogue/catalogue.js';

/** The caller behind an inference-surface request. */
export interface Principal {
  orgId: string;
  apiKeyId: string;
  livemode: boolean;
  scopes: readonly Family[];
}
