/**
 * Bounded maps of the newest entries (the kept reads, rate-limit counts, a deck's ratings, offline
 * cache ids, pages fetched ahead): a `Map` keeps insertion order, so the first key is the oldest.
 */

/** Sets `key` as the map's newest entry, then drops the oldest while the map holds more than `max`. */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value!);
}
