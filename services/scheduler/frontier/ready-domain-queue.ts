import type { DomainSchedule } from './domain-schedule';
import { MinHeap } from './min-heap';

interface ReadyEntry {
  availableAtMs: number;
  sequence: number;
  version: number;
  schedule: DomainSchedule;
}

/** Shed lazily-deleted entries once a band holds this many more than it should. */
const COMPACTION_SLACK = 1024;

/**
 * Domains that can be served, in priority bands. A band holds the domains whose best due URL has
 * that `priority_rank`; inside a band a min-heap orders them by the time they become available
 * (next allowed dequeue, or since when their head waits). Serving pops the earliest domain and
 * pushes it back with its next available time, so inside a band domains take turns — round robin —
 * and one busy domain cannot starve the others. Bands are served in rank order.
 *
 * Removing a domain from a heap is lazy: a version stamp on the schedule invalidates its old entry,
 * which is discarded when it surfaces. Cost per operation is O(log domains in the band); nothing
 * depends on how many URLs the frontier holds.
 */
export class ReadyDomainQueue {
  readonly #bands = new Map<number, MinHeap<ReadyEntry>>();
  /** Ranks of the bands, ascending. */
  #ranks: number[] = [];
  #sequence = 0;
  #readyCount = 0;

  get readyCount(): number {
    return this.#readyCount;
  }

  /** (Re-)queues `schedule` in band `rank`, available from `availableAtMs`. */
  push(schedule: DomainSchedule, rank: number, availableAtMs: number): void {
    if (schedule.readyRank === null) this.#readyCount += 1;
    schedule.readyVersion += 1;
    schedule.readyRank = rank;
    schedule.readyAvailableAtMs = availableAtMs;
    const band = this.#bandOf(rank);
    band.push({
      availableAtMs,
      sequence: (this.#sequence += 1),
      version: schedule.readyVersion,
      schedule,
    });
    if (band.size > this.#readyCount * 2 + COMPACTION_SLACK) {
      band.retain((entry) => isLive(entry) && entry.schedule.readyRank === rank);
    }
  }

  withdraw(schedule: DomainSchedule): void {
    if (schedule.readyRank === null) return;
    this.#readyCount -= 1;
    schedule.readyVersion += 1;
    schedule.readyRank = null;
  }

  /** When the earliest queued domain becomes available (Infinity when none is queued). */
  earliestAvailableAtMs(): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const band of this.#bands.values()) {
      let top = band.peek();
      while (top !== undefined && !isLive(top)) {
        band.pop();
        top = band.peek();
      }
      if (top !== undefined) earliest = Math.min(earliest, top.availableAtMs);
    }
    return earliest;
  }

  /** The band ranks in serving order (a copy: serving may add bands). */
  ranks(): number[] {
    return [...this.#ranks];
  }

  /** Takes the earliest domain of band `rank` if it is available at `nowMs`. */
  popAvailable(rank: number, nowMs: number): DomainSchedule | undefined {
    const band = this.#bands.get(rank);
    if (band === undefined) return undefined;
    for (;;) {
      const top = band.peek();
      if (top === undefined) {
        this.#dropBand(rank);
        return undefined;
      }
      if (!isLive(top)) {
        band.pop();
        continue;
      }
      if (top.availableAtMs > nowMs) return undefined;
      band.pop();
      this.withdraw(top.schedule);
      return top.schedule;
    }
  }

  #bandOf(rank: number): MinHeap<ReadyEntry> {
    let band = this.#bands.get(rank);
    if (band === undefined) {
      band = new MinHeap<ReadyEntry>((left, right) =>
        left.availableAtMs === right.availableAtMs
          ? left.sequence < right.sequence
          : left.availableAtMs < right.availableAtMs,
      );
      this.#bands.set(rank, band);
      this.#ranks.splice(lowerBound(this.#ranks, rank), 0, rank);
    }
    return band;
  }

  #dropBand(rank: number): void {
    this.#bands.delete(rank);
    const index = lowerBound(this.#ranks, rank);
    if (this.#ranks[index] === rank) this.#ranks.splice(index, 1);
  }
}

function isLive(entry: ReadyEntry): boolean {
  return entry.version === entry.schedule.readyVersion;
}

function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
