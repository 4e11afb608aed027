/** Adds one to `key`'s count (a missing key counts from 0). */
export function tally<K>(counts: Map<K, number>, key: K): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
