import { primaryKey, type PrimaryKey } from '../../common/storage/primary-key';
import { seededRandom } from '../../common/testing/seeded-random';
import { DueQueueWindows, withStagedEntries } from './due-queue-windows';
import { dueIndexKey } from './frontier-tables';

/** A due-index key: serials spread over two ranks, three due times and the url_hash. */
const keyOf = (domain: string, serial: number) =>
  dueIndexKey(
    domain,
    serial % 2 === 0 ? 10 : 1010,
    `2026-12-05T10:00:0${serial % 3}Z`,
    String(serial).padStart(32, '0'),
  );
/** Due-index keys in the order of `serial`: one rank, one due time. */
const orderedKey = (domain: string, serial: number) =>
  dueIndexKey(domain, 10, '2026-12-05T10:00:00Z', String(serial).padStart(32, '0'));
const encodedOf = (keys: readonly PrimaryKey[]) => keys.map((key) => key.encoded);

describe('DueQueueWindows', () => {
  it('answers as the queues it mirrors do, or not at all, through reads, additions and removals', () => {
    const random = seededRandom(20261205);
    const windows = new DueQueueWindows(4);
    const domains = ['a.example', 'b.example', 'c.example'];
    /** The model: each domain's queue, as the staged writes leave it, in key order. */
    const queues = new Map(domains.map((domain) => [domain, new Map<string, PrimaryKey>()]));
    const queueOf = (domain: string) =>
      [...(queues.get(domain) as Map<string, PrimaryKey>).values()].sort((left, right) =>
        left.encoded < right.encoded ? -1 : 1,
      );
    let answeredCount = 0;
    let refusedCount = 0;
    for (let step = 0; step < 20_000; step += 1) {
      const domain = domains[Math.floor(random() * domains.length)];
      const queue = queues.get(domain) as Map<string, PrimaryKey>;
      const roll = random();
      if (roll < 0.35) {
        const key = keyOf(domain, Math.floor(random() * 40));
        queue.set(key.encoded, key);
        windows.added(domain, key);
      } else if (roll < 0.7) {
        const held = queueOf(domain);
        // Mostly an entry of the queue, sometimes one it does not hold.
        const key =
          held.length > 0 && random() < 0.8
            ? held[Math.floor(random() * held.length)]
            : keyOf(domain, Math.floor(random() * 40));
        queue.delete(key.encoded);
        windows.removed(domain, key);
      } else if (roll < 0.75) {
        // A read of the queue's first entries, as the picker makes one.
        const limit = 1 + Math.floor(random() * 6);
        const held = queueOf(domain);
        windows.remember(domain, { keys: held.slice(0, limit), hasMore: held.length > limit });
      } else {
        const held = queueOf(domain);
        const after =
          held.length > 0 && random() < 0.5 ? held[Math.floor(random() * held.length)] : undefined;
        const limit = 1 + Math.floor(random() * 3);
        const expected = held.filter((key) => after === undefined || key.encoded > after.encoded);
        const page = windows.read(domain, after, limit);
        if (page === undefined) {
          refusedCount += 1;
          continue;
        }
        answeredCount += 1;
        expect(encodedOf(page.keys)).toEqual(encodedOf(expected.slice(0, limit)));
        // It may think more follow when none do (a cautious read of storage), never the reverse.
        if (expected.length > limit) expect(page.hasMore).toBe(true);
      }
    }
    expect(answeredCount).toBeGreaterThan(2000);
    expect(refusedCount).toBeGreaterThan(100);
    expect(windows.domainCount).toBeLessThanOrEqual(domains.length);
  });

  it('holds a whole short queue, and an empty one, as complete: entries staged later join it', () => {
    const windows = new DueQueueWindows(3);
    windows.remember('a.example', { keys: [], hasMore: false });
    expect(windows.read('a.example', undefined, 2)).toEqual({ keys: [], hasMore: false });
    windows.added('a.example', orderedKey('a.example', 5));
    windows.added('a.example', orderedKey('a.example', 1));
    expect(encodedOf(windows.read('a.example', undefined, 2)?.keys ?? [])).toEqual(
      encodedOf([orderedKey('a.example', 1), orderedKey('a.example', 5)]),
    );
    // A fourth entry pushes the last one out: the window no longer holds the whole queue.
    windows.added('a.example', orderedKey('a.example', 3));
    windows.added('a.example', orderedKey('a.example', 4));
    expect(windows.read('a.example', orderedKey('a.example', 3), 2)).toBeUndefined();
    expect(windows.read('a.example', orderedKey('a.example', 1), 2)).toMatchObject({
      hasMore: true,
    });
  });

  it('forgets an incomplete window once it is empty, so that the next read goes to storage', () => {
    const windows = new DueQueueWindows(2);
    windows.remember('a.example', {
      keys: [orderedKey('a.example', 1), orderedKey('a.example', 2)],
      hasMore: true,
    });
    // Behind its last entry: not among what it holds.
    windows.added('a.example', orderedKey('a.example', 9));
    windows.removed('a.example', orderedKey('a.example', 1));
    windows.removed('a.example', orderedKey('a.example', 2));
    expect(windows.has('a.example')).toBe(false);
    expect(windows.read('a.example', undefined, 1)).toBeUndefined();
  });

  it('holds no key it could not give back exactly, and forgets a window such a key would enter', () => {
    const windows = new DueQueueWindows(4);
    const odd = primaryKey('a.example', '10', '2026-12-05T10:00:00.500Z', 'not-a-hash');
    windows.remember('a.example', { keys: [keyOf('a.example', 1), odd], hasMore: false });
    expect(windows.has('a.example')).toBe(false);
    windows.remember('a.example', { keys: [keyOf('a.example', 1)], hasMore: false });
    expect(windows.read('a.example', undefined, 2)?.keys).toEqual([keyOf('a.example', 1)]);
    windows.removed('a.example', odd); // never held: nothing changes
    expect(windows.has('a.example')).toBe(true);
    windows.added('a.example', odd);
    expect(windows.has('a.example')).toBe(false);
    expect(windows.read('a.example', undefined, 1)).toBeUndefined();
  });

  it('keeps windows apart as it grows past its first slots, and reuses forgotten ones', () => {
    const windows = new DueQueueWindows(2);
    const domains = Array.from({ length: 3000 }, (_, index) => `d${index}.example`);
    domains.forEach((domain, index) =>
      windows.remember(domain, {
        keys: [keyOf(domain, index), keyOf(domain, index + 2)],
        hasMore: true,
      }),
    );
    for (const domain of domains.slice(0, 1000)) {
      windows.removed(domain, keyOf(domain, domains.indexOf(domain)));
      windows.removed(domain, keyOf(domain, domains.indexOf(domain) + 2));
    }
    expect(windows.domainCount).toBe(2000);
    windows.remember('late.example', { keys: [keyOf('late.example', 7)], hasMore: false });
    domains.slice(1000).forEach((domain, offset) => {
      const index = 1000 + offset;
      expect(encodedOf(windows.read(domain, undefined, 2)?.keys ?? [])).toEqual(
        encodedOf([keyOf(domain, index), keyOf(domain, index + 2)]),
      );
    });
    expect(windows.read('late.example', undefined, 2)?.keys).toEqual([keyOf('late.example', 7)]);
  });

  it('puts staged entries into a page read from storage: all of them when the page ends the queue, else those up to its last entry', () => {
    const stored = [orderedKey('a.example', 2), orderedKey('a.example', 4)];
    const staged = [
      orderedKey('a.example', 1),
      orderedKey('a.example', 4),
      orderedKey('a.example', 6),
    ];
    expect(encodedOf(withStagedEntries({ keys: stored, hasMore: false }, staged).keys)).toEqual(
      encodedOf([1, 2, 4, 6].map((serial) => orderedKey('a.example', serial))),
    );
    expect(withStagedEntries({ keys: stored, hasMore: true }, staged)).toEqual({
      keys: [1, 2, 4].map((serial) => orderedKey('a.example', serial)),
      hasMore: true,
    });
    // An empty page with more behind it says nothing about where staged entries stand.
    expect(withStagedEntries({ keys: [], hasMore: true }, staged)).toEqual({
      keys: [],
      hasMore: true,
    });
  });
});
