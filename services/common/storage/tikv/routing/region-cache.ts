import { RegionRoute, regionContainsKey } from './region-route';

/**
 * Key → region lookups without asking PD. Regions are kept sorted by start key so a lookup is one
 * binary search ("greatest start_key ≤ key", then check the end), which keeps the hot path cheap.
 * Entries are evicted by identity: an invalidation only removes the route object the failing
 * request used, never a newer one a concurrent request already installed.
 */
export class RegionCache {
  private sorted: RegionRoute[] = [];
  private readonly byId = new Map<string, RegionRoute>();

  find(key: Buffer): RegionRoute | undefined {
    const sorted = this.sorted;
    let low = 0;
    let high = sorted.length - 1;
    let candidate = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (Buffer.compare(sorted[middle].startKey, key) <= 0) {
        candidate = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (candidate < 0) return undefined;
    const route = sorted[candidate];
    return regionContainsKey(route, key) ? route : undefined;
  }

  findById(regionId: string): RegionRoute | undefined {
    return this.byId.get(regionId);
  }

  /** Installs a route, evicting every cached region that overlaps it or shares its id. */
  insert(route: RegionRoute): void {
    const kept: RegionRoute[] = [];
    for (const cached of this.sorted) {
      if (cached.id === route.id || overlaps(cached, route)) this.byId.delete(cached.id);
      else kept.push(cached);
    }
    let position = kept.findIndex((cached) => Buffer.compare(cached.startKey, route.startKey) > 0);
    if (position < 0) position = kept.length;
    kept.splice(position, 0, route);
    this.sorted = kept;
    this.byId.set(route.id, route);
  }

  invalidate(route: RegionRoute): void {
    if (this.byId.get(route.id) !== route) return;
    this.byId.delete(route.id);
    this.sorted = this.sorted.filter((cached) => cached !== route);
  }

  get size(): number {
    return this.sorted.length;
  }

  clear(): void {
    this.sorted = [];
    this.byId.clear();
  }
}

function overlaps(a: RegionRoute, b: RegionRoute): boolean {
  const aStartsBeforeBEnds = b.endKey.length === 0 || Buffer.compare(a.startKey, b.endKey) < 0;
  const bStartsBeforeAEnds = a.endKey.length === 0 || Buffer.compare(b.startKey, a.endKey) < 0;
  return aStartsBeforeBEnds && bStartsBeforeAEnds;
}
