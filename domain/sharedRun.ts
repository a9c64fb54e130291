/**
 * One run per key at a time: a caller that asks while `key`'s run is under way gets that run's
 * promise instead of starting another; the run is forgotten once it settles.
 */
export function sharedRun<K, T>(runs: Map<K, Promise<T>>, key: K, run: () => Promise<T>): Promise<T> {
  let p = runs.get(key);
  if (!p) {
    p = run().finally(() => runs.delete(key));
    runs.set(key, p);
  }
  return p;
}
