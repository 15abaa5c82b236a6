/**
 * One loader per key, each run at most once: the first call's promise is kept, so concurrent and
 * later callers share it. Used to import a module per endpoint on first use (see params/load.ts).
 */
export function loadOnce<K extends string, V>(loaders: Readonly<Record<K, () => Promise<V>>>): (key: K) => Promise<V> {
  const loaded = new Map<K, Promise<V>>();
  return (key) => {
    let value = loaded.get(key);
    if (!value) {
      value = loaders[key]();
      loaded.set(key, value);
    }
    return value;
  };
}
