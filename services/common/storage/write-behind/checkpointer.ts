import { setImmediate } from 'node:timers/promises';
import type { LmdbBackend } from '../lmdb-backend';
import type { FileWriteJournal } from './file-write-journal';
import type { WriteOverlay } from './write-overlay';

export interface CheckpointSettings {
  /** A checkpoint starts once the overlay holds this many committed rows… */
  rowCountThreshold: number;
  /** …or once the oldest committed write not checkpointed has waited this long. */
  maxDelayMs: number;
  /** Rows handed to lmdb-js per event-loop turn (see #run). */
  rowsPerTurn: number;
}

/*
 * Larger checkpoints make larger LMDB transactions (cheaper rows), for a larger overlay and the
 * dirty pages of a larger transaction in memory. Against 20,000 rows / 1 s, four alternating
 * rounds at 1M URLs (bench:frontier-ab): 16 workers 7,735 vs 7,343 URLs/s, CPU 175 vs 187 µs per
 * URL, GC 0.64 vs 0.74 s a row; 4 workers 6,625 vs 6,475 URLs/s, lease p99 34.6 vs 37.5 ms; peak
 * RSS at 1M ~100–150 MiB higher. (With the slices spread thin before the twenty-third session,
 * larger checkpoints had not helped: their transactions stayed small.)
 */
const DEFAULT_CHECKPOINT_SETTINGS: CheckpointSettings = {
  rowCountThreshold: 50_000,
  maxDelayMs: 2_000,
  rowsPerTurn: 5_000,
};

/** The defaults with `overrides` applied; a RangeError for settings no checkpoint could run with. */
export function checkpointSettingsOf(
  overrides: Partial<CheckpointSettings> = {},
): CheckpointSettings {
  const settings = { ...DEFAULT_CHECKPOINT_SETTINGS, ...overrides };
  if (!Number.isSafeInteger(settings.rowsPerTurn) || settings.rowsPerTurn < 1) {
    throw new RangeError(
      `rowsPerTurn must be a positive whole number, got ${settings.rowsPerTurn}`,
    );
  }
  return settings;
}

/** Cumulative figures of the checkpoints so far. */
export interface CheckpointStatistics {
  checkpointCount: number;
  /** Row versions the journal records carried, and the rows written for them (one per key). */
  versionCount: number;
  rowWriteCount: number;
  /** LMDB transactions the store committed while checkpoints wrote (see #run). */
  transactionCount: number;
  secondsWriting: number;
}

/**
 * Moves the overlay's committed rows into the store, in the background and in a few large
 * transactions each time (see #run): every key once, at its newest committed version (a key
 * written many times, or written and deleted, costs one write). Then, once the rows are synced,
 * the journal forgets every record up to the newest one the checkpoint covered and the overlay
 * drops the generation the checkpoint wrote (what committed meanwhile is in the next one).
 *
 * Crash ordering: rows are written before records are removed, so a crash in between replays
 * records whose rows are already there — harmless, a replay ends at the newest version of each key.
 */
export class Checkpointer {
  #committedSequence = 0;
  /** The newest sequence the journal was told to forget through. */
  #removedThroughSequence = 0;
  /** The newest sequence whose rows the store holds, synced. */
  #checkpointedThroughSequence = 0;
  #waitingVersionCount = 0;
  #oldestWaitingAtMs: number | undefined;
  #running: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #failure: unknown;
  #isDraining = false;
  readonly statistics: CheckpointStatistics = {
    checkpointCount: 0,
    versionCount: 0,
    rowWriteCount: 0,
    transactionCount: 0,
    secondsWriting: 0,
  };

  constructor(
    private readonly store: LmdbBackend,
    private readonly journal: FileWriteJournal,
    private readonly overlay: WriteOverlay,
    private readonly settings: CheckpointSettings,
    private readonly onFailure: (error: unknown) => void,
    /**
     * How far the journal may forget once the store holds every row through `checkpointed`: a
     * journal that also carries resident rows keeps what their owner's snapshot does not cover.
     */
    private readonly removableThrough: (checkpointed: number) => number = (checkpointed) =>
      checkpointed,
  ) {}

  /** Journal record `sequence`, carrying `versionCount` row versions, is durable. */
  committed(sequence: number, versionCount: number): void {
    this.#committedSequence = sequence;
    this.#waitingVersionCount += versionCount;
    this.#oldestWaitingAtMs ??= Date.now();
    this.#schedule();
  }

  /** Row versions committed and not checkpointed yet. */
  get waitingVersionCount(): number {
    return this.#waitingVersionCount;
  }

  /** Resolves once the checkpoint under way, if any, is done. */
  async idle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  /** Checkpoints every committed write now, whatever the thresholds (on close, under pressure). */
  async drain(): Promise<void> {
    this.#isDraining = true;
    try {
      this.#schedule();
      await this.idle();
    } finally {
      this.#isDraining = false;
    }
  }

  stop(): void {
    this.#clearTimer();
  }

  /**
   * Lets the journal forget the records the store holds (synced by a checkpoint) that the resident
   * rows' owner also covers (removableThrough). Run after every checkpoint, and on close: a
   * snapshot that counted after the last checkpoint — the one a clean stop writes — would else
   * leave every segment it covers for the next open to read and replay again (at 1M URLs grown
   * in one go, ~400 MB and ~10 s of start-up).
   */
  async forgetCovered(): Promise<void> {
    const removable = this.removableThrough(this.#checkpointedThroughSequence);
    if (removable > this.#removedThroughSequence) {
      await this.journal.removeThrough(removable);
      this.#removedThroughSequence = removable;
    }
  }

  #schedule(): void {
    if (this.#running !== undefined || this.#failure !== undefined) return;
    if (this.#oldestWaitingAtMs === undefined) return;
    const waitedMs = Date.now() - this.#oldestWaitingAtMs;
    if (
      this.#isDraining ||
      this.overlay.committedSize >= this.settings.rowCountThreshold ||
      waitedMs >= this.settings.maxDelayMs
    ) {
      this.#clearTimer();
      this.#running = this.#run();
      return;
    }
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#schedule();
      }, this.settings.maxDelayMs - waitedMs);
      // Housekeeping: it must never keep a process alive (close() drains what is left).
      this.#timer.unref();
    }
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #run(): Promise<void> {
    // Everything committed up to now; what commits meanwhile waits for the next checkpoint.
    const throughSequence = this.#committedSequence;
    const versionCount = this.#waitingVersionCount;
    this.#waitingVersionCount = 0;
    this.#oldestWaitingAtMs = undefined;
    const taken = this.overlay.beginCheckpoint();
    try {
      const startedAt = performance.now();
      // The journal synced first: the store never holds a version whose record a power loss could
      // still take from the journal — else a replay of the shorter journal would put older
      // versions back over some of the checkpoint's rows and not others.
      await this.journal.flushed();
      const firstTransactionId = this.store.lastTransactionId();
      // Handed over in slices, one per event-loop turn: the requests of a turn wait behind its
      // slice (~0.5 µs of the main thread a row at 1M URLs, ~2.5 ms for 5,000), so never all at
      // once. But the slices must reach lmdb-js faster than its writer thread takes them: the
      // writer commits whenever it has caught up with what is queued, and a transaction costs
      // LMDB far more per row when it is small — each commit merges the pages it freed into
      // lmdb-js's free list and writes its pages out. Slices spread over half a second of turns
      // (the pacer before the twenty-third session) made ~1,100 rows a transaction at 16 workers
      // on 1M URLs; slices of 5,000 made ~6,000–7,000 of the checkpoints of 20,000 rows, and
      // make 31,000–46,000 of those of 50,000 (bench:frontier prints it). Four alternating rounds
      // with 20,000-row checkpoints (bench:frontier-ab): 16 workers 7,482 vs 6,890 URLs/s, 183 vs
      // 204 µs of CPU per URL; 4 workers 6,476 vs 6,338, lease p99 34.7 vs 32.9 ms. Nothing needs
      // the slices together: the journal keeps every record until the end.
      const applied: Array<Promise<void>> = [];
      for (let start = 0; start < taken.length; start += this.settings.rowsPerTurn) {
        if (start > 0) await setImmediate();
        applied.push(
          this.store.applyStoredWrites(taken.slice(start, start + this.settings.rowsPerTurn)),
        );
      }
      await Promise.all(applied);
      // Synced before the journal forgets them: a power loss must not lose what it held.
      await this.store.flushed();
      this.#checkpointedThroughSequence = throughSequence;
      await this.forgetCovered();
      this.statistics.secondsWriting += (performance.now() - startedAt) / 1000;
      this.overlay.endCheckpoint();
      this.statistics.checkpointCount += 1;
      this.statistics.versionCount += versionCount;
      this.statistics.rowWriteCount += taken.length;
      this.statistics.transactionCount += this.store.lastTransactionId() - firstTransactionId;
    } catch (error) {
      this.#failure = error;
      this.onFailure(error);
    } finally {
      this.#running = undefined;
    }
    this.#schedule();
  }
}
