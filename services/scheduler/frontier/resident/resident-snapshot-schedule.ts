import { writeResidentSnapshot } from './resident-snapshot-file';
import type { ResidentUrlStore } from './resident-url-store';

export interface ResidentSnapshotSettings {
  /** A snapshot begins once this many rows were applied since the last one began… */
  rowCount: number;
  /** …or once the last one began this long ago and any row was applied since. */
  intervalMs: number;
}

/*
 * A snapshot of 1M URLs writes ~230 MiB in about a second, sliced so no turn waits more than a
 * millisecond or two; replay after a kill -9 puts the rows journalled since the last one back at
 * ~5 µs each. A million rows — a minute or so of a busy crawl of three rows a URL — bounds that
 * replay to a few seconds and the journal kept for it to ~250 MB.
 */
const DEFAULT_SNAPSHOT_SETTINGS: ResidentSnapshotSettings = {
  rowCount: 1_000_000,
  intervalMs: 5 * 60_000,
};

export function residentSnapshotSettingsOf(
  overrides: Partial<ResidentSnapshotSettings> = {},
): ResidentSnapshotSettings {
  const settings = { ...DEFAULT_SNAPSHOT_SETTINGS, ...overrides };
  for (const [name, value] of Object.entries(settings)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(
        `resident snapshot ${name} must be a positive whole number, got ${value}`,
      );
    }
  }
  return settings;
}

/** What a snapshot that counted wrote (for the log). */
export interface ResidentSnapshotWritten {
  journalSequence: number;
  slotCount: number;
  byteCount: number;
  seconds: number;
}

/** Cumulative figures of the snapshots so far (for metrics, read at scrape time). */
export interface ResidentSnapshotStatistics {
  snapshotCount: number;
  failureCount: number;
  secondsWriting: number;
  /** Journal records applied that no complete snapshot covers yet: what a restart replays. */
  uncoveredRecordCount: number;
}

export interface ResidentSnapshotReporting {
  /** A background snapshot failed (it is tried again at the next trigger). */
  onError: (error: unknown) => void;
  onWritten?: (written: ResidentSnapshotWritten) => void;
}

/**
 * When the resident store is written to its snapshot file, and how far the newest complete one
 * covers the journal (ResidentRows.coveredThrough). A snapshot begins from a row count or a time
 * since the last one, runs in the background one at a time, and counts only once its file is
 * synced and renamed into place; its coverage is the journal sequence the store had reached when
 * it began (writes landing during it are replayed again: resident-snapshot-file.ts). A failed
 * snapshot is reported and tried again at the next trigger; the journal keeps what it does not
 * cover meanwhile.
 */
export class ResidentSnapshotSchedule {
  #appliedSequence: number;
  #coveredThrough: number;
  #rowsSinceStart = 0;
  #startedAtMs = Date.now();
  #running: Promise<void> | undefined;
  #flushed: (() => Promise<void>) | undefined;
  #isClosed = false;
  readonly #statistics = { snapshotCount: 0, failureCount: 0, secondsWriting: 0 };

  constructor(
    private readonly store: ResidentUrlStore,
    private readonly path: string,
    coveredThrough: number,
    private readonly settings: ResidentSnapshotSettings,
    private readonly reporting: ResidentSnapshotReporting,
  ) {
    this.#appliedSequence = coveredThrough;
    this.#coveredThrough = coveredThrough;
  }

  get coveredThrough(): number {
    return this.#coveredThrough;
  }

  statistics(): ResidentSnapshotStatistics {
    return {
      ...this.#statistics,
      uncoveredRecordCount: this.#appliedSequence - this.#coveredThrough,
    };
  }

  /**
   * Snapshots may begin from now on. `flushed`: the write-behind store's — awaited before a
   * snapshot counts, so it never holds a change whose journal record a power loss could take.
   */
  start(flushed: () => Promise<void>): void {
    this.#flushed = flushed;
  }

  /** `rowCount` rows of journal record `sequence` are in the store. */
  applied(sequence: number, rowCount: number): void {
    this.#appliedSequence = sequence;
    this.#rowsSinceStart += rowCount;
    if (this.#running !== undefined || this.#flushed === undefined || this.#isClosed) return;
    if (
      this.#rowsSinceStart >= this.settings.rowCount ||
      (this.#rowsSinceStart > 0 && Date.now() - this.#startedAtMs >= this.settings.intervalMs)
    ) {
      void this.#begin(false);
    }
  }

  /** Writes a snapshot now (after the one under way); rejects when it fails. */
  async snapshotNow(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
    // Begun in the same turn as the check: no trigger can start another one in between.
    await this.#begin(true);
  }

  /** Resolves once the snapshot under way, if any, has ended. */
  async idle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  /** No snapshot begins from here on; waits for the one under way. */
  async close(): Promise<void> {
    this.#isClosed = true;
    await this.idle();
  }

  /** Whether rows were applied after what the newest snapshot covers. */
  get hasUncoveredRows(): boolean {
    return this.#appliedSequence > this.#coveredThrough;
  }

  /** Starts a snapshot as the one under way (which never rejects); answers its own outcome. */
  #begin(rejectsOnFailure: boolean): Promise<void> {
    const snapshot = this.#snapshot(rejectsOnFailure);
    const running: Promise<void> = snapshot
      .catch(() => undefined)
      .finally(() => {
        if (this.#running === running) this.#running = undefined;
      });
    this.#running = running;
    return snapshot;
  }

  async #snapshot(rejectsOnFailure: boolean): Promise<void> {
    const journalSequence = this.#appliedSequence;
    const slotCount = this.store.size;
    this.#rowsSinceStart = 0;
    this.#startedAtMs = Date.now();
    const startedAt = performance.now();
    try {
      const byteCount = await writeResidentSnapshot(this.store, this.path, {
        journalSequence,
        beforeCommit: this.#flushed,
      });
      this.#coveredThrough = Math.max(this.#coveredThrough, journalSequence);
      const seconds = (performance.now() - startedAt) / 1000;
      this.#statistics.snapshotCount += 1;
      this.#statistics.secondsWriting += seconds;
      this.reporting.onWritten?.({ journalSequence, slotCount, byteCount, seconds });
    } catch (error) {
      this.#statistics.failureCount += 1;
      this.#statistics.secondsWriting += (performance.now() - startedAt) / 1000;
      if (rejectsOnFailure) throw error;
      this.reporting.onError(error);
    }
  }
}
