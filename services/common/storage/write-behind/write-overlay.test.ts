import { seededRandom } from '../../testing/seeded-random';
import { TableLocation } from '../storage-key';
import { encodeJournalRecordWithLayout } from './journal-record';
import { tableOfOverlayKey, WriteOverlay, type RowVersion } from './write-overlay';

/** `{service}:{table}:` as the keyspace builds it. */
const prefixOf = (table: string) => new TableLocation('scheduler', table).prefix;
const DUE = prefixOf('url_due_index');
/** The first key after the due table (`:` + 1). */
const AFTER_DUE = `${DUE.slice(0, -1)};`;
/** Three tables and keys of no table at all. */
const TABLES = [prefixOf('url_task'), DUE, prefixOf('domain_runtime'), ''];

function commitOne(overlay: WriteOverlay, key: string, sequence: number): RowVersion {
  const versions = overlay.issue(
    sequence,
    encodeJournalRecordWithLayout([
      { key: Buffer.from(key, 'latin1'), stored: Buffer.from([sequence % 256]) },
    ]),
  );
  overlay.commit(versions);
  return versions[0];
}

function rangeKeys(overlay: WriteOverlay, start: string, end: string): string[] {
  return Array.from(overlay.committedRange(start, end), (version) =>
    version.key.toString('latin1'),
  );
}

describe('WriteOverlay', () => {
  it('names the table of a key by its first two parts', () => {
    expect(tableOfOverlayKey(`${prefixOf('url_task')}abc`)).toBe(prefixOf('url_task'));
    expect(tableOfOverlayKey(`${DUE}a.example/2/x`)).toBe(DUE);
    expect(tableOfOverlayKey(DUE.slice(0, DUE.indexOf(':') + 1))).toBe('');
    expect(tableOfOverlayKey('plain-key')).toBe('');
  });

  it('answers every read as a model of two generations does, through commits and checkpoints', () => {
    const random = seededRandom(20261204);
    const overlay = new WriteOverlay();
    // The model: versions committed since the last checkpoint began, and those it is writing.
    let current = new Map<string, RowVersion>();
    let checkpointing: Map<string, RowVersion> | undefined;
    const visible = () => new Map([...(checkpointing ?? []), ...current]);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
    const keyIn = (table: string) =>
      `${table}${String.fromCharCode(97 + Math.floor(random() * 6))}${Math.floor(random() * 40)}`;
    let rangeReadCount = 0;
    let checkpointCount = 0;
    for (let step = 1; step <= 4000; step += 1) {
      const roll = random();
      if (roll < 0.5) {
        const key = keyIn(pick(TABLES));
        current.set(key, commitOne(overlay, key, step));
      } else if (roll < 0.55 && checkpointing === undefined) {
        const taken = overlay.beginCheckpoint();
        // Every key committed since the last checkpoint began, once, at its newest version.
        expect(new Set(taken)).toEqual(new Set(current.values()));
        expect(taken).toHaveLength(current.size);
        checkpointing = current;
        current = new Map();
        checkpointCount += 1;
      } else if (roll < 0.6 && checkpointing !== undefined) {
        overlay.endCheckpoint();
        checkpointing = undefined;
      } else {
        const table = pick(TABLES);
        const [start, end] =
          random() < 0.15
            ? ['', '\u00ff'] // across every table
            : random() < 0.5
              ? [table, `${table}\u00ff`]
              : [keyIn(table), keyIn(table)];
        const model = visible();
        const expected = [...model.keys()].filter((key) => key >= start && key < end).sort();
        expect(overlay.hasCommittedInRange(start, end)).toBe(expected.length > 0);
        const versions = [...overlay.committedRange(start, end)];
        expect(versions.map((version) => version.key.toString('latin1'))).toEqual(expected);
        // The newest version of each key, never one a later commit replaced.
        versions.forEach((version, index) => expect(version).toBe(model.get(expected[index])));
        rangeReadCount += 1;
      }
      const key = keyIn(pick(TABLES));
      expect(overlay.committedVersion(key)).toBe(visible().get(key));
      expect(overlay.committedSize).toBe(current.size + (checkpointing?.size ?? 0));
    }
    expect(rangeReadCount).toBeGreaterThan(500);
    expect(checkpointCount).toBeGreaterThan(50);
  });

  it('answers the latest version of a key as a model of records in flight does, through issues, commits and withdrawals', () => {
    const random = seededRandom(20261205);
    const overlay = new WriteOverlay();
    const keys = Array.from({ length: 12 }, (_, index) => `${DUE}k${index}`);
    /** Records issued and not settled, oldest first, as the overlay handed them out. */
    const inFlight: RowVersion[][] = [];
    const committed = new Map<string, RowVersion>();
    const latestOf = (key: string) => {
      for (let record = inFlight.length - 1; record >= 0; record -= 1) {
        const found = [...inFlight[record]].reverse().find((version) => version.overlayKey === key);
        if (found !== undefined) return found;
      }
      return committed.get(key);
    };
    let withdrawnCount = 0;
    for (let step = 1; step <= 3000; step += 1) {
      const roll = random();
      if (roll < 0.45 || inFlight.length === 0) {
        // A key may be written twice in one record (the newer write wins) and in several records.
        // Deletes too, and stored forms of several lengths.
        const writes = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({
          key: Buffer.from(keys[Math.floor(random() * keys.length)], 'latin1'),
          stored:
            random() < 0.2 ? undefined : Buffer.alloc(1 + Math.floor(random() * 40), step % 256),
        }));
        const versions = overlay.issue(step, encodeJournalRecordWithLayout(writes));
        // Each version reads back the bytes it was written with.
        versions.forEach((version, index) => {
          expect(version.key).toEqual(writes[index].key);
          expect(version.stored).toEqual(writes[index].stored);
          expect(version.overlayKey).toBe(writes[index].key.toString('latin1'));
        });
        inFlight.push(versions);
      } else {
        // Mostly the oldest record settles first, as the backend orders them; sometimes another.
        const position = random() < 0.8 ? 0 : Math.floor(random() * inFlight.length);
        const [versions] = inFlight.splice(position, 1);
        if (random() < 0.1) {
          overlay.withdraw(versions);
          withdrawnCount += 1;
        } else {
          overlay.commit(versions);
          for (const version of versions) committed.set(version.overlayKey, version);
        }
      }
      for (const key of keys) expect(overlay.latestVersion(key)).toBe(latestOf(key));
      const issuedCount = inFlight.reduce((count, versions) => count + versions.length, 0);
      expect(overlay.size).toBe(committed.size + issuedCount);
      const inRange = [...overlay.issuedKeysInRange(`${DUE}k1`, `${DUE}k2`)].sort();
      const expectedInRange = inFlight
        .flat()
        .map((version) => version.overlayKey)
        .filter((key) => key >= `${DUE}k1` && key < `${DUE}k2`)
        .sort();
      expect(inRange).toEqual(expectedInRange);
    }
    expect(withdrawnCount).toBeGreaterThan(20);
  });

  it('refuses a second checkpoint while one is under way', () => {
    const overlay = new WriteOverlay();
    commitOne(overlay, `${DUE}a`, 1);
    overlay.beginCheckpoint();
    expect(() => overlay.beginCheckpoint()).toThrow('a checkpoint is already under way');
    overlay.endCheckpoint();
    expect(overlay.beginCheckpoint()).toEqual([]);
  });

  it('answers range reads in key order, for tables kept in order since the generation before and tables sorted on their first read', () => {
    const overlay = new WriteOverlay();
    commitOne(overlay, `${DUE}b`, 1);
    commitOne(overlay, `${DUE}a`, 2);
    expect(rangeKeys(overlay, DUE, AFTER_DUE)).toEqual([`${DUE}a`, `${DUE}b`]);
    overlay.beginCheckpoint(); // read in this generation: the next one keeps it in order
    commitOne(overlay, `${DUE}0`, 3);
    expect(rangeKeys(overlay, DUE, AFTER_DUE)).toEqual([`${DUE}0`, `${DUE}a`, `${DUE}b`]);
    overlay.endCheckpoint();
    commitOne(overlay, `${DUE}c`, 4);
    overlay.beginCheckpoint(); // read again: still ordered
    overlay.endCheckpoint();
    commitOne(overlay, `${DUE}1`, 5);
    overlay.beginCheckpoint(); // not read since: no longer ordered, sorted again on its next read
    commitOne(overlay, `${DUE}2`, 6);
    expect(rangeKeys(overlay, DUE, AFTER_DUE)).toEqual([`${DUE}1`, `${DUE}2`]);
  });
});
