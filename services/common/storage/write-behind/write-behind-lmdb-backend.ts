import { mkdirSync } from 'node:fs';
import {
  assertKey,
  assertRange,
  assertScanLimit,
  assertWrite,
  LmdbBackend,
  type LmdbBackendOptions,
} from '../lmdb-backend';
import {
  ENVELOPE_HEADER_BYTES,
  expiresAtMsFor,
  isLiveAt,
  livePayloadOf,
  wrapValue,
} from '../lmdb-value-envelope';
import {
  isExpectedValue,
  type CompareAndSwapOutcome,
  type InPlaceDecoder,
  type KeyRange,
  type KeyRangeScan,
  type KeyValueEntry,
  type KeyValueWrite,
  type OrderedKeyValueBackend,
} from '../ordered-key-value-backend';
import {
  Checkpointer,
  checkpointSettingsOf,
  type CheckpointSettings,
  type CheckpointStatistics,
} from './checkpointer';
import { claimJournal, releaseJournal } from './journal-owner';
import {
  encodeJournalRecordWithLayout,
  type JournalRecordLayout,
  type StoredWrite,
} from './journal-record';
import { FileWriteJournal, journalDirectoryOf } from './file-write-journal';
import { replayResidentJournal } from './resident-journal-replay';
import {
  isResidentKey,
  markResidentJournal,
  rangeHoldsResidentKeys,
  residentKeyPrefixOf,
  ResidentJournalError,
  ResidentRowReadError,
  type ResidentRows,
} from './resident-rows';
import { overlayKeyOf, WriteOverlay, type RowVersion } from './write-overlay';

export interface WriteBehindOptions extends LmdbBackendOptions {
  checkpoint?: Partial<CheckpointSettings>;
  /**
   * Row versions the overlay may hold before a write's acknowledgement waits for the checkpoint to
   * catch up (back-pressure instead of unbounded memory and checkpoints); default 200,000.
   */
  maxOverlayRowCount?: number;
  /** Where a failed checkpoint is reported; default process.emitWarning. */
  onCheckpointError?: (error: unknown) => void;
  /**
   * Rows journalled but held by their owner, not by the store (resident-rows.ts). A store opened
   * with them once is opened with them always: its journal is marked, and kept across restarts.
   */
  residentRows?: ResidentRows;
}

/** What the write-behind layer holds and has done (metrics, benchmarks). */
export interface WriteBehindStatistics extends CheckpointStatistics {
  overlayRowCount: number;
  waitingVersionCount: number;
  /** Journal records issued and not committed yet. */
  appendsInFlight: number;
  /** Writes whose acknowledgement waited for checkpoints (back-pressure), and their waits. */
  backPressureWaitCount: number;
  backPressureSeconds: number;
}

const copyPayload: InPlaceDecoder<Buffer> = (bytes, start) => Buffer.from(bytes.subarray(start));

/**
 * LMDB with a write-behind journal: the same store and the same promises as LmdbBackend, for a
 * process whose writes are many small random rows in a large store (the scheduler's frontier).
 *
 * A write is one record appended to a journal of segment files (file-write-journal.ts: the records
 * of one synchronous run go out together when it ends, and count together or not at all) and is
 * acknowledged once that write returned — durable exactly as an LmdbBackend write (see
 * LmdbSyncMode). Until a checkpoint copies it into the store's rows, the row lives in an in-memory
 * overlay that every read consults first. Checkpoints run in the background, in transactions of
 * tens of thousands of rows, one write per key however often it changed — random B-tree writes
 * leave the request path and get cheaper per row.
 *
 * Reads see committed writes only (as LmdbBackend: a write is visible once acknowledged).
 * Compare-and-swap decides on the newest issued version of the key, synchronously, so it is
 * atomic against every write of this process. One process per store: the overlay is this
 * process's memory (LMDB's lock does not cover it), as the frontier already assumes — enforced:
 * a second process opening the store, to write behind or to read, is refused while this one runs
 * (journal-owner.ts).
 *
 * A crash loses nothing acknowledged: the next open of the store — by any LmdbBackend — replays
 * the journal into the rows before anything else (journal-replay.ts).
 *
 * With `residentRows` (resident-rows.ts) the rows under one key prefix are journalled in the same
 * records and groups but never enter the overlay or the store: their owner takes them once durable,
 * and snapshots them itself. Such a journal is kept across restarts — cut after its last whole
 * group, replayed with the owner (resident-journal-replay.ts), numbered on — and forgets a segment
 * only once both a checkpoint and the owner's snapshot cover it.
 */
export class WriteBehindLmdbBackend implements OrderedKeyValueBackend {
  readonly backendName = 'lmdb' as const;
  /**
   * Appends take effect in sequence order: the overlay takes a record only after every earlier
   * one (#write), and replay stops at the first record missing (journal-replay.ts).
   */
  readonly keepsIssueOrder = true;

  readonly #overlay = new WriteOverlay();
  readonly #checkpointer: Checkpointer;
  readonly #maxOverlayRowCount: number;
  readonly #residentRows: ResidentRows | undefined;
  #lastSequence: number;
  readonly #backPressure = { backPressureWaitCount: 0, backPressureSeconds: 0 };
  /**
   * The newest append's outcome as the overlay took it: rejected once any append failed. It settles
   * only after every earlier append did, so waiting for it waits for them all.
   */
  #lastAppend: Promise<void> = Promise.resolve();
  #appendsInFlight = 0;
  #failure: unknown;
  #isClosed = false;

  private constructor(
    private readonly store: LmdbBackend,
    private readonly journal: FileWriteJournal,
    private readonly journalDirectory: string,
    checkpointSettings: CheckpointSettings,
    options: WriteBehindOptions,
    lastSequence: number,
  ) {
    this.#maxOverlayRowCount = options.maxOverlayRowCount ?? 200_000;
    this.#residentRows = options.residentRows;
    this.#lastSequence = lastSequence;
    const residentRows = this.#residentRows;
    const onCheckpointError =
      options.onCheckpointError ??
      ((error: unknown) => process.emitWarning(`write-behind checkpoint failed: ${String(error)}`));
    this.#checkpointer = new Checkpointer(
      store,
      journal,
      this.#overlay,
      checkpointSettings,
      (error) => {
        this.#failure ??= error;
        onCheckpointError(error);
      },
      // Segments holding resident rows stay until the owner's snapshot covers them too.
      residentRows === undefined
        ? undefined
        : (checkpointed) => Math.min(checkpointed, residentRows.coveredThrough()),
    );
  }

  /** Opens the store in `directory` (replaying a journal left there) and its journal. */
  static async open(
    directory: string,
    options: WriteBehindOptions = {},
  ): Promise<WriteBehindLmdbBackend> {
    // Checked before anything opens: a refused setting leaves no store open, no journal claimed.
    const checkpointSettings = checkpointSettingsOf(options.checkpoint);
    const journalDirectory = journalDirectoryOf(directory);
    mkdirSync(journalDirectory, { recursive: true });
    // Claimed before the replay: from here on no other process replays this journal or writes it.
    claimJournal(journalDirectory);
    const { residentRows } = options;
    // A journal marked for resident rows is kept across restarts and replayed with their owner;
    // one not marked yet holds none, and the store's open replays it into the rows and empties it
    // as any other.
    const markedPrefix = residentKeyPrefixOf(journalDirectory);
    const isResidentJournal = residentRows !== undefined && markedPrefix !== undefined;
    let store: LmdbBackend | undefined;
    try {
      // Written behind without their owner, the store would serve as if those rows never were.
      if (residentRows === undefined && markedPrefix !== undefined) {
        throw new ResidentJournalError(journalDirectory, markedPrefix);
      }
      // Only checkpoints write the store, slice by slice over a few turns (Checkpointer): let
      // lmdb-js commit them in as few transactions as its writer can take, not one per slice. At
      // 1M URLs and 16 workers that held the scheduler at 6,327 URLs/s, lease p99 97 ms, where one
      // transaction per turn fell behind the journal into back-pressure: 4,353 URLs/s, p99 333 ms.
      store = await LmdbBackend.open(directory, {
        ...options,
        commitsWholeTurns: false,
        isJournalClaimedByCaller: true,
        isJournalReplayedByCaller: isResidentJournal,
      });
      const syncMode = options.syncMode ?? 'overlapping';
      let journal: FileWriteJournal;
      let lastSequence = 0;
      if (residentRows === undefined) {
        journal = FileWriteJournal.open(journalDirectory, syncMode);
      } else {
        await markResidentJournal(journalDirectory, residentRows.keyPrefix);
        const kept = await replayResidentJournal(journalDirectory, store, residentRows);
        journal = FileWriteJournal.continuing(journalDirectory, syncMode, kept.segments);
        // Numbering goes on from the newest record — or from the snapshot's, when checkpoints and
        // snapshots let the journal delete every segment: a record numbered anew from 1 would be
        // taken for one the snapshot covers.
        lastSequence = Math.max(kept.lastSequence, residentRows.coveredThrough());
      }
      return new WriteBehindLmdbBackend(
        store,
        journal,
        journalDirectory,
        checkpointSettings,
        options,
        lastSequence,
      );
    } catch (error) {
      await store?.close();
      releaseJournal(journalDirectory);
      throw error;
    }
  }

  statistics(): WriteBehindStatistics {
    return {
      ...this.#checkpointer.statistics,
      overlayRowCount: this.#overlay.size,
      waitingVersionCount: this.#checkpointer.waitingVersionCount,
      appendsInFlight: this.#appendsInFlight,
      ...this.#backPressure,
    };
  }

  async get(key: Buffer): Promise<Buffer | undefined> {
    return (await this.getMany([key]))[0];
  }

  async getMany(keys: Buffer[]): Promise<Array<Buffer | undefined>> {
    return this.getDecodedMany(keys, copyPayload);
  }

  getDecodedMany<T>(keys: Buffer[], decode: InPlaceDecoder<T>): Array<T | undefined> {
    this.#assertOpen();
    keys.forEach(assertKey);
    this.#assertNotResident(keys);
    if (this.#overlay.committedSize === 0) return this.store.getDecodedMany(keys, decode);
    const nowMs = Date.now();
    const values = new Array<T | undefined>(keys.length);
    const storeKeys: Buffer[] = [];
    const storePositions: number[] = [];
    keys.forEach((key, position) => {
      const version = this.#overlay.committedVersion(overlayKeyOf(key));
      if (version === undefined) {
        storeKeys.push(key);
        storePositions.push(position);
      } else {
        values[position] = decodeLive(version, nowMs, decode);
      }
    });
    if (storeKeys.length > 0) {
      const stored = this.store.getDecodedMany(storeKeys, decode);
      storePositions.forEach((position, index) => (values[position] = stored[index]));
    }
    return values;
  }

  async put(write: KeyValueWrite): Promise<void> {
    await this.putMany([write]);
  }

  async putMany(writes: KeyValueWrite[]): Promise<void> {
    this.#assertOpen();
    // Validate everything before writing anything: a bad row leaves no half batch behind.
    writes.forEach(assertWrite);
    const nowMs = Date.now();
    await this.#write(
      writes.map(({ key, value, ttlSeconds, source }) => ({
        key,
        stored: wrapValue(value, expiresAtMsFor(ttlSeconds, nowMs)),
        source,
      })),
    );
  }

  async delete(key: Buffer): Promise<void> {
    await this.deleteMany([key]);
  }

  async deleteMany(keys: Buffer[]): Promise<void> {
    this.#assertOpen();
    keys.forEach(assertKey);
    await this.#write(keys.map((key) => ({ key, stored: undefined })));
  }

  async deleteRange(range: KeyRange): Promise<void> {
    this.#assertOpen();
    assertRange(range);
    if (Buffer.compare(range.start, range.end) >= 0) return;
    this.#assertRangeNotResident(range);
    // Every key the range holds as this process sees it now: the rows, and newer versions here.
    const start = overlayKeyOf(range.start);
    const end = overlayKeyOf(range.end);
    const keys = new Set<string>(this.store.rowKeys(range).map(overlayKeyOf));
    for (const { overlayKey } of this.#overlay.committedRange(start, end)) keys.add(overlayKey);
    for (const overlayKey of this.#overlay.issuedKeysInRange(start, end)) keys.add(overlayKey);
    if (keys.size === 0) return;
    await this.#write(
      [...keys].map((overlayKey) => ({
        key: Buffer.from(overlayKey, 'latin1'),
        stored: undefined,
      })),
    );
  }

  async scan(range: KeyRangeScan): Promise<KeyValueEntry[]> {
    this.#assertOpen();
    assertScanLimit(range.limit);
    assertRange(range);
    this.#assertRangeNotResident(range);
    const nowMs = Date.now();
    const rows = this.store.liveRows(range, nowMs);
    const newer = this.#newerVersionsIn(range);
    return take(newer === undefined ? rows : mergeNewer(rows, newer, nowMs), range.limit);
  }

  forEachDecoded<T>(range: KeyRange, decode: InPlaceDecoder<T>, visit: (value: T) => void): void {
    this.#assertOpen();
    assertRange(range);
    this.#assertRangeNotResident(range);
    const newer = this.#newerVersionsIn(range);
    if (newer === undefined) {
      this.store.forEachDecoded(range, decode, visit);
      return;
    }
    const nowMs = Date.now();
    for (const { value } of mergeNewer(this.store.liveRows(range, nowMs), newer, nowMs)) {
      visit(decode(value, 0));
    }
  }

  /** The overlay's committed versions in `range`, newer than the store's rows; none: undefined. */
  #newerVersionsIn(range: KeyRange): Iterator<RowVersion> | undefined {
    if (this.#overlay.committedSize === 0) return undefined;
    const start = overlayKeyOf(range.start);
    const end = overlayKeyOf(range.end);
    if (!this.#overlay.hasCommittedInRange(start, end)) return undefined;
    return this.#overlay.committedRange(start, end);
  }

  async compareAndSwap(
    key: Buffer,
    expected: Buffer | undefined,
    next: Buffer,
    ttlSeconds?: number,
  ): Promise<CompareAndSwapOutcome> {
    this.#assertOpen();
    assertWrite({ key, value: next, ttlSeconds });
    this.#assertNotResident([key]);
    // Decided synchronously on the newest issued version: no write of this process can land
    // between the comparison and the swap's place in the journal.
    const nowMs = Date.now();
    const version = this.#overlay.latestVersion(overlayKeyOf(key));
    const previous =
      version === undefined
        ? this.store.getDecodedMany([key], copyPayload)[0]
        : decodeLive(version, nowMs, copyPayload);
    const isSwapped = isExpectedValue(previous, expected);
    if (isSwapped) {
      await this.#write([{ key, stored: wrapValue(next, expiresAtMsFor(ttlSeconds, nowMs)) }]);
    } else {
      // An answer of "not swapped" must not rest on a write that could still be taken back.
      await this.#issuedSettled();
    }
    return { isSwapped, previous };
  }

  /** Resolves once every write acknowledged so far is also synced (past a power loss). */
  async flushed(): Promise<void> {
    this.#assertOpen();
    await this.#issuedSettled();
    await this.journal.flushed();
  }

  /** Checkpoints every committed write now (tests, benchmarks; close does it too). */
  async checkpointNow(): Promise<void> {
    this.#assertOpen();
    await this.#issuedSettled();
    await this.#checkpointer.drain();
  }

  async close(): Promise<void> {
    if (this.#isClosed) return;
    this.#isClosed = true;
    await this.#issuedSettled();
    // What the store does not hold yet stays in the journal when a checkpoint failed; the next
    // open replays it.
    if (this.#failure === undefined) await this.#checkpointer.drain();
    this.#checkpointer.stop();
    await this.#checkpointer.idle();
    if (this.#failure === undefined) await this.#checkpointer.forgetCovered();
    await this.journal.close();
    releaseJournal(this.journalDirectory);
    await this.store.close();
  }

  /**
   * Appends `writes` as one journal record; resolves once it is durable. Synchronous up to the
   * append: records issued in one run are written together, in order, and count together or not at
   * all after a crash (the journal's groups), as the frontier's group commit expects of an atomic
   * backend.
   *
   * The overlay takes a committed record only after every earlier one, and fails it when any
   * earlier one failed — whatever order the completions arrive in — so nothing issued after a
   * failed append is ever read, checkpointed or acknowledged (keepsIssueOrder). Its record may
   * still be in the journal; replay stops at the failed one's missing sequence number.
   */
  #write(writes: StoredWrite[]): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (writes.length === 0) return Promise.resolve();
    const layout = encodeJournalRecordWithLayout(writes);
    let split: ResidentSplit = { overlayLayout: layout, prepared: [] };
    try {
      // Before the sequence number is taken: a refused row refuses its batch and leaves no gap.
      if (this.#residentRows !== undefined)
        split = splitResident(writes, layout, this.#residentRows);
    } catch (error) {
      return Promise.reject(error);
    }
    this.#lastSequence += 1;
    const sequence = this.#lastSequence;
    const versions = this.#overlay.issue(sequence, split.overlayLayout);
    let appending: Promise<void>;
    try {
      appending = this.journal.append(sequence, layout.record);
    } catch (error) {
      appending = Promise.reject(error);
    }
    const earlier = this.#lastAppend;
    const appended = Promise.allSettled([appending, earlier]).then(([own, before]) => {
      if (own.status === 'fulfilled' && before.status === 'fulfilled') {
        this.#overlay.commit(versions);
        this.#checkpointer.committed(sequence, versions.length);
        this.#applyResident(split.prepared, sequence);
        return;
      }
      const failed = [before, own].find(
        (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
      );
      const error: unknown = failed?.reason;
      this.#failure ??= error;
      this.#overlay.withdraw(versions);
      throw error;
    });
    this.#lastAppend = appended;
    this.#appendsInFlight += 1;
    const settled = appended.finally(() => (this.#appendsInFlight -= 1));
    return settled.then(() => this.#roomInOverlay());
  }

  /**
   * Back-pressure: while the overlay is over its bound the acknowledgement waits for checkpoints
   * (the one under way, then at once what is committed), until none has anything left to move.
   */
  async #roomInOverlay(): Promise<void> {
    if (this.#overlay.size <= this.#maxOverlayRowCount) return;
    const startedAt = performance.now();
    try {
      while (this.#overlay.size > this.#maxOverlayRowCount && this.#failure === undefined) {
        await this.#checkpointer.drain();
        if (this.#checkpointer.waitingVersionCount === 0) return;
      }
    } finally {
      this.#backPressure.backPressureWaitCount += 1;
      this.#backPressure.backPressureSeconds += (performance.now() - startedAt) / 1000;
    }
  }

  /**
   * Hands the owner its rows of a durable record, in sequence order (the overlay's order). It
   * checked them when they were issued; should it throw anyway, its state and the journal may
   * differ from here on, so the store takes no more writes (the journal replays on the next open).
   */
  #applyResident(prepared: unknown[], sequence: number): void {
    try {
      this.#residentRows?.apply(prepared, sequence);
    } catch (error) {
      this.#failure ??= error;
      throw error;
    }
  }

  #assertNotResident(keys: Buffer[]): void {
    const residentRows = this.#residentRows;
    if (residentRows === undefined) return;
    for (const key of keys) {
      if (isResidentKey(key, residentRows.keyPrefix)) {
        throw new ResidentRowReadError(residentRows.keyPrefix);
      }
    }
  }

  #assertRangeNotResident(range: KeyRange): void {
    const residentRows = this.#residentRows;
    if (residentRows !== undefined && rangeHoldsResidentKeys(range, residentRows.keyPrefix)) {
      throw new ResidentRowReadError(residentRows.keyPrefix);
    }
  }

  async #issuedSettled(): Promise<void> {
    await this.#lastAppend.catch(() => undefined);
  }

  #assertOpen(): void {
    if (this.#isClosed) throw new Error('WriteBehindLmdbBackend is closed');
  }
}

/** A record's rows split between the overlay (a layout of the same bytes) and the resident rows. */
interface ResidentSplit {
  overlayLayout: JournalRecordLayout;
  prepared: unknown[];
}

function splitResident(
  writes: StoredWrite[],
  layout: JournalRecordLayout,
  residentRows: ResidentRows,
): ResidentSplit {
  const prepared: unknown[] = [];
  const storeIndexes: number[] = [];
  writes.forEach((write, index) => {
    if (isResidentKey(write.key, residentRows.keyPrefix)) {
      prepared.push(residentRows.prepare(write));
    } else {
      storeIndexes.push(index);
    }
  });
  if (prepared.length === 0) return { overlayLayout: layout, prepared };
  const pick = (starts: Int32Array) => Int32Array.from(storeIndexes, (index) => starts[index]);
  return {
    overlayLayout: {
      record: layout.record,
      keyStarts: pick(layout.keyStarts),
      storedStarts: pick(layout.storedStarts),
      storedEnds: pick(layout.storedEnds),
    },
    prepared,
  };
}

function decodeLive<T>(
  version: RowVersion,
  nowMs: number,
  decode: InPlaceDecoder<T>,
): T | undefined {
  const { stored } = version;
  return stored !== undefined && isLiveAt(stored, nowMs)
    ? decode(stored, ENVELOPE_HEADER_BYTES)
    : undefined;
}

function take(entries: Iterable<KeyValueEntry>, limit: number): KeyValueEntry[] {
  const taken: KeyValueEntry[] = [];
  for (const entry of entries) {
    taken.push(entry);
    if (taken.length >= limit) break;
  }
  return taken;
}

/**
 * The rows in key order with the overlay's newer versions in their place (deletes drop them).
 * Stopped early (a scan's limit), it closes `rows`: an LMDB cursor left open pins its read
 * transaction, and every later commit then holds one more reader slot until reads fail with
 * MDB_READERS_FULL.
 */
function* mergeNewer(
  rows: Iterator<KeyValueEntry>,
  newer: Iterator<RowVersion>,
  nowMs: number,
): Generator<KeyValueEntry> {
  try {
    yield* mergeOpen(rows, newer, nowMs);
  } finally {
    rows.return?.();
    newer.return?.();
  }
}

function* mergeOpen(
  rows: Iterator<KeyValueEntry>,
  newer: Iterator<RowVersion>,
  nowMs: number,
): Generator<KeyValueEntry> {
  let row = rows.next();
  let version = newer.next();
  while (!row.done || !version.done) {
    const order = row.done
      ? 1
      : version.done
        ? -1
        : Buffer.compare(row.value.key, version.value.key);
    if (order < 0) {
      yield row.value;
      row = rows.next();
      continue;
    }
    if (order === 0) row = rows.next();
    const { key, stored } = (version as IteratorYieldResult<RowVersion>).value;
    const payload = livePayloadOf(stored, nowMs);
    if (payload !== undefined) yield { key, value: payload };
    version = newer.next();
  }
}
