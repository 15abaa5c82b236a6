import type { Family } from '../catalogue/catalogue.js';
import type { SpendLimit } from '../ports/access.js';

/** The caller behind an inference-surface request. */
export interface Principal {
  orgId: string;
  apiKeyId: string;
  livemode: boolean;
  scopes: readonly Family[];
  /** the key's spend limit, held by the admission's transaction (docs/internals/spend-limits.md) */
  spendLimit?: SpendLimit | null;
  /** the presented secret's hash: an admission re-checks it inside its transaction */
  secretHash?: string;
  /** taken from the principal cache without a read: only an admission's transaction may rely on it */
  provisional?: boolean;
  /**
   * the keys version of the organisation and mode, read in one snapshot with the secret: an
   * admission commits only while it is unchanged (`expectKeysVersion`), which is how a revocation
   * holds on the very next request even for a cached principal
   */
  keysVersion?: number;
}
