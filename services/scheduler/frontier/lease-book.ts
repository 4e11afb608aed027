import type { LeaseTaskDocument, UrlTaskDocument } from './frontier-documents';
import { MinHeap } from './min-heap';
import { msOfTimeText } from './time-text';

/** A lease that is issued and neither reported nor reclaimed. */
export interface LiveLease {
  readonly document: LeaseTaskDocument;
  readonly expiresAtMs: number;
  /** The URLs it holds (its task list, less any its report or expiry was already applied to). */
  readonly heldUrlHashes: readonly string[];
  /**
   * Their documents as the frontier sees them (leased), kept from when the lease was taken: while a
   * lease holds a URL nothing else changes its document, so its report and its reclaim need not
   * read them again.
   */
  readonly heldTasks: ReadonlyMap<string, UrlTaskDocument>;
}

/** A lease's place in the expiry order: its id and time only, never the lease itself. */
interface ExpiryEntry {
  leaseId: string;
  expiresAtMs: number;
}

/**
 * Every live lease, in memory: which URL each holds, and their expiry order. A lease lives in
 * storage as its `lease_task` record (the truth, read back at start-up); here it is found without a
 * read, a URL's holder is one map lookup, and the reclaimer takes expired leases off a heap instead
 * of scanning an index. A lease leaves the book in the same mutation that reports or reclaims it,
 * so nothing else can take it meanwhile.
 */
export class LeaseBook {
  readonly #leases = new Map<string, LiveLease>();
  readonly #holders = new Map<string, string>();
  /**
   * Leases by expiry, removed lazily: a reported lease's entry stays until its expiry comes round
   * (entries whose lease left the book are skipped). So the entry names the lease and holds nothing
   * of it — the heap held the LiveLease itself until the forty-seventh session, and with it
   * its fifty documents and their strings for the whole lease_ttl_seconds after the report
   * (120 s in bench:frontier: ~36,000 leases at 15,000 URLs/s), all promoted and then collected
   * by the old generation's collector.
   */
  readonly #byExpiry = new MinHeap<ExpiryEntry>(
    (left, right) => left.expiresAtMs < right.expiresAtMs,
  );

  /** `heldTasks`: the leased documents of the URLs it holds. */
  add(document: LeaseTaskDocument, heldTasks: readonly UrlTaskDocument[]): LiveLease {
    const heldUrlHashes = heldTasks.map((task) => task.url_hash);
    const lease: LiveLease = {
      document,
      expiresAtMs: msOfTimeText(document.expires_at),
      heldUrlHashes,
      heldTasks: new Map(heldTasks.map((task) => [task.url_hash, task])),
    };
    this.#leases.set(document.lease_id, lease);
    for (const urlHash of heldUrlHashes) this.#holders.set(urlHash, document.lease_id);
    this.#byExpiry.push({ leaseId: document.lease_id, expiresAtMs: lease.expiresAtMs });
    return lease;
  }

  get(leaseId: string): LiveLease | undefined {
    return this.#leases.get(leaseId);
  }

  /** The live lease holding `urlHash`, if any. */
  holderOf(urlHash: string): string | undefined {
    return this.#holders.get(urlHash);
  }

  remove(leaseId: string): void {
    const lease = this.#leases.get(leaseId);
    if (lease === undefined) return;
    this.#leases.delete(leaseId);
    for (const urlHash of lease.heldUrlHashes) {
      if (this.#holders.get(urlHash) === leaseId) this.#holders.delete(urlHash);
    }
  }

  /** Up to `limit` leases expired by `nowMs`, earliest first (they stay in the book). */
  expiredBy(nowMs: number, limit: number): LiveLease[] {
    const expired: LiveLease[] = [];
    const kept: ExpiryEntry[] = [];
    while (expired.length < limit) {
      const top = this.#byExpiry.peek();
      if (top === undefined || top.expiresAtMs > nowMs) break;
      this.#byExpiry.pop();
      const lease = this.#liveLeaseOf(top);
      if (lease === undefined) continue; // reported meanwhile
      expired.push(lease);
      kept.push(top);
    }
    for (const entry of kept) this.#byExpiry.push(entry);
    return expired;
  }

  /** When the earliest live lease expires (Infinity when none is live). */
  earliestExpiryMs(): number {
    for (;;) {
      const top = this.#byExpiry.peek();
      if (top === undefined) return Number.POSITIVE_INFINITY;
      if (this.#liveLeaseOf(top) !== undefined) return top.expiresAtMs;
      this.#byExpiry.pop();
    }
  }

  /** The live lease an expiry entry stands for, or undefined once it left the book. */
  #liveLeaseOf(entry: ExpiryEntry): LiveLease | undefined {
    const lease = this.#leases.get(entry.leaseId);
    return lease?.expiresAtMs === entry.expiresAtMs ? lease : undefined;
  }

  get count(): number {
    return this.#leases.size;
  }

  all(): IterableIterator<LiveLease> {
    return this.#leases.values();
  }
}
