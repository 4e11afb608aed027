import { seededRandom } from '../../testing/seeded-random';
import { TableLocation } from '../storage-key';
import { tableOfOverlayKey, WriteOverlay, type RowVersion } from './write-overlay';

/** `{service}:{table}:` as the keyspace builds it. */
const prefixOf = (table: string) => new TableLocation('scheduler', table).prefix;
const DUE = prefixOf('url_due_index');
/** The first key after the due table (`:` + 1). */
const AFTER_DUE = `${DUE.slice(0, -1)};`;
/** Three tables and keys of no table at all. */
const TABLES = [prefixOf('url_task'), DUE, prefixOf('domain_runtime'), ''];

function commitOne(overlay: WriteOverlay, key: string, sequence: number): RowVersion {
  const [[, version]] = overlay.issue(sequence, [
    { key: Buffer.from(key, 'latin1'), stored: Buffer.from([sequence % 256]) },
  ]);
  overlay.commit([[key, version]]);
  return version;
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

  it('answers every range read as a sorted model does, through commits, releases and tables dropping their order', () => {
    const random = seededRandom(20261204);
    const overlay = new WriteOverlay();
    const model = new Map<string, RowVersion>();
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
    const keyIn = (table: string) =>
      `${table}${String.fromCharCode(97 + Math.floor(random() * 6))}${Math.floor(random() * 40)}`;
    let rangeReadCount = 0;
    for (let step = 1; step <= 4000; step += 1) {
      const roll = random();
      if (roll < 0.45) {
        const key = keyIn(pick(TABLES));
        model.set(key, commitOne(overlay, key, step));
      } else if (roll < 0.65 && model.size > 0) {
        const [key, version] = pick([...model]);
        // A release of a version a newer one replaced changes nothing.
        if (random() < 0.2) overlay.release(key, { ...version });
        else {
          overlay.release(key, version);
          model.delete(key);
        }
      } else if (roll < 0.7) {
        overlay.forgetUnreadOrder();
      } else {
        const table = pick(TABLES);
        const [start, end] =
          random() < 0.15
            ? ['', '\u00ff'] // across every table
            : random() < 0.5
              ? [table, `${table}\u00ff`]
              : [keyIn(table), keyIn(table)];
        const expected = [...model.keys()].filter((key) => key >= start && key < end).sort();
        expect(rangeKeys(overlay, start, end)).toEqual(expected);
        rangeReadCount += 1;
      }
      expect(overlay.committedSize).toBe(model.size);
    }
    expect(rangeReadCount).toBeGreaterThan(500);
    const taken = overlay.committedVersions();
    expect(new Set(taken.overlayKeys)).toEqual(new Set(model.keys()));
    // Each version at its key's index.
    taken.overlayKeys.forEach((overlayKey, index) =>
      expect(taken.versions[index]).toBe(overlay.committedVersion(overlayKey)),
    );
  });

  it('keeps a table in order while it is read by range, and sorts it again after it was dropped', () => {
    const overlay = new WriteOverlay();
    commitOne(overlay, `${DUE}b`, 1);
    commitOne(overlay, `${DUE}a`, 2);
    expect(rangeKeys(overlay, DUE, AFTER_DUE)).toEqual([`${DUE}a`, `${DUE}b`]);
    overlay.forgetUnreadOrder(); // read since the last look: kept
    commitOne(overlay, `${DUE}0`, 3);
    overlay.forgetUnreadOrder(); // not read since: dropped
    commitOne(overlay, `${DUE}c`, 4);
    expect(rangeKeys(overlay, DUE, AFTER_DUE)).toEqual([
      `${DUE}0`,
      `${DUE}a`,
      `${DUE}b`,
      `${DUE}c`,
    ]);
  });
});
