export interface StoredResponse {
  status: number;
  contentType: string;
  body: unknown;
}

export interface IdempotencyRecord {
  scope_key: string;
  fingerprint: string;
  status: 'in_progress' | 'completed';
  lock_token: string;
  lock_expires_at: number;
  expires_at: number;
  response: StoredResponse | null;
  /**
   * Set while a `wait=true` request that stored its `202` with the job is still holding its
   * connection (epoch seconds): a duplicate is told to retry rather than given the `202`.
   */
  settling_until?: number;
}

/** Powertools' record design: claim IN_PROGRESS with its own expiry, then store the response. */
export interface IdempotencyStore {
  /** claims the key; returns null on success, or the live record that holds it */
  claim(record: IdempotencyRecord, now: number): Promise<IdempotencyRecord | null>;
  /** stores the final answer (and ends any `settling_until`) */
  complete(scopeKey: string, lockToken: string, response: StoredResponse): Promise<void>;
  /** frees the key so the same request can be retried (after a 5xx or a 429) */
  release(scopeKey: string, lockToken: string): Promise<void>;
}
