// Leases on a piece of work that must never run twice at once (the sweeper's run, docs/internals/operations.md).

export interface LeaseStore {
  /** takes the lease `name` for `token` until `untilMs`: true when it was free or had run out by `nowMs` */
  take(name: string, token: string, untilMs: number, nowMs: number): Promise<boolean>;
  /** lets go of the lease when `token` still holds it */
  release(name: string, token: string): Promise<void>;
}
