/**
 * A per-process map whose entries lapse at a given time, holding at most `maxEntries` (the oldest
 * entry makes room for a new one): what this process remembers for a while to save a read or a
 * refused write, never the source of truth.
 */
export class ExpiringMap<K, V> {
  private readonly entries = new Map<K, { value: V; untilMs: number }>();

  constructor(private readonly maxEntries = 10_000) {}

  /** the value, while its entry has not lapsed at `nowMs` */
  get(key: K, nowMs: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.untilMs > nowMs) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: K, value: V, untilMs: number): void {
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, untilMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
