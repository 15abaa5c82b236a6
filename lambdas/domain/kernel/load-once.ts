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

/** Every key's value, loaded together: for code that needs them all (the OpenAPI generator, tests). */
export async function loadEvery<K extends string, V>(
  keys: readonly K[],
  load: (key: K) => Promise<V>,
): Promise<Record<K, V>> {
  return Object.fromEntries(await Promise.all(keys.map(async (key) => [key, await load(key)] as const))) as Record<
    K,
    V
  >;
}
