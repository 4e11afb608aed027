import { RetryBudget } from '../retry/retry-budget';
import { RegionLocator } from '../routing/region-locator';
import { RegionRoute, regionContainsKey } from '../routing/region-route';

export interface RegionBatch<T> {
  route: RegionRoute;
  items: T[];
}

/**
 * Sorts items by key and cuts the sorted run at region boundaries: one region lookup per region
 * crossed, not per key (client-go's `groupKeysByRegion`).
 */
export async function groupByRegion<T>(
  items: readonly T[],
  keyOf: (item: T) => Buffer,
  locator: RegionLocator,
  budget: RetryBudget,
): Promise<Array<RegionBatch<T>>> {
  const sorted = [...items].sort((a, b) => Buffer.compare(keyOf(a), keyOf(b)));
  const batches: Array<RegionBatch<T>> = [];
  let current: RegionBatch<T> | undefined;
  for (const item of sorted) {
    const key = keyOf(item);
    if (!current || !regionContainsKey(current.route, key)) {
      current = { route: await locator.locate(key, budget), items: [] };
      batches.push(current);
    }
    current.items.push(item);
  }
  return batches;
}

export interface ChunkLimits {
  maxItems: number;
  /** Soft cap on key+value bytes per request; a single larger item still goes alone. */
  maxBytes: number;
}

/** Cuts one region's items into requests of bounded size, keeping their order. */
export function splitIntoChunks<T>(
  items: readonly T[],
  limits: ChunkLimits,
  sizeOf: (item: T) => number,
): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (chunk.length > 0 && (chunk.length >= limits.maxItems || bytes + size > limits.maxBytes)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(item);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
