import { primaryKeyPrefix } from '../../common/storage/primary-key';
import { link } from '../testing/contract-fixtures';
import {
  doneReportOf,
  leaseFrom,
  openTestFrontier,
  seedTestFrontier,
  type TestFrontier,
} from '../testing/test-frontier';
import type { FrontierParts } from './assemble-frontier';
import { loadDueQueueWindows } from './due-window-loading';

const DOMAINS = Array.from(
  { length: 24 },
  (_, index) => `d${String(index).padStart(2, '0')}.example`,
);

function loadWindows(parts: FrontierParts, pageSize: number): Promise<number | undefined> {
  const { tables, store, dueWindows, mutator } = parts;
  return loadDueQueueWindows(
    { dueIndex: tables.dueIndex, store, windows: dueWindows, mutator, pageSize },
    () => false,
  );
}

/** Each windowed domain's window against the first entries storage holds (all writes durable). */
async function expectWindowsMatchStorage(parts: FrontierParts): Promise<number> {
  await parts.commits.settled();
  let comparedCount = 0;
  for (const domain of DOMAINS) {
    const held = parts.dueWindows.read(domain, undefined, 1);
    if (held === undefined) continue;
    const windowKeys: string[] = [];
    for (let after = undefined as (typeof held.keys)[number] | undefined; ;) {
      const page = parts.dueWindows.read(domain, after, 1);
      if (page === undefined || page.keys.length === 0) break;
      windowKeys.push(page.keys[0].encoded);
      after = page.keys[0];
    }
    const stored = await parts.tables.dueIndex.scanKeys({
      prefix: primaryKeyPrefix(domain),
      limit: windowKeys.length,
    });
    expect(windowKeys).toEqual(stored.keys.map((key) => key.encoded));
    comparedCount += 1;
  }
  return comparedCount;
}

describe('due-queue windows over a real frontier', () => {
  let frontier: TestFrontier;

  afterEach(() => frontier.dispose());

  it('loaded after a restart, serve a lease with no read of the due index, and its heads are the ones storage holds', async () => {
    frontier = await openTestFrontier();
    await seedTestFrontier(frontier.parts, DOMAINS, 6);
    const { parts } = await frontier.reopen();
    expect(parts.dueWindows.domainCount).toBe(0);

    expect(await loadWindows(parts, 1000)).toBe(DOMAINS.length);
    expect(await expectWindowsMatchStorage(parts)).toBe(DOMAINS.length);

    const heads = await Promise.all(
      DOMAINS.map(async (domain) => {
        const { keys } = await parts.tables.dueIndex.scanKeys({
          prefix: primaryKeyPrefix(domain),
          limit: 1,
        });
        return keys[0].parts[3]; // {domain}/{priority_rank}/{due_at}/{url_hash}
      }),
    );
    const scans = jest.spyOn(parts.tables.dueIndex, 'scanKeys');
    const lease = await leaseFrom(parts, { taskCount: DOMAINS.length });
    expect(scans).not.toHaveBeenCalled();
    // One URL per domain (they take turns), each its queue's head.
    expect(lease.task_list.map((task) => task.url_hash).sort()).toEqual(heads.sort());
  });

  it('give no window to a domain whose entries run across two pages of the load (the picker makes it)', async () => {
    frontier = await openTestFrontier();
    await seedTestFrontier(frontier.parts, DOMAINS, 3);
    const { parts } = await frontier.reopen();
    // 72 entries in pages of 5: 14 page boundaries, each inside a domain's 3 entries or between two.
    const madeCount = (await loadWindows(parts, 5)) as number;
    expect(madeCount).toBeLessThan(DOMAINS.length);
    expect(madeCount).toBeGreaterThanOrEqual(DOMAINS.length - 14);
    expect(await expectWindowsMatchStorage(parts)).toBe(madeCount);

    await leaseFrom(parts, { taskCount: DOMAINS.length });
    expect(parts.dueWindows.domainCount).toBe(DOMAINS.length);
    expect(await expectWindowsMatchStorage(parts)).toBe(DOMAINS.length);
  });

  it('stay what storage holds through leases, reports and the links they add', async () => {
    frontier = await openTestFrontier();
    await seedTestFrontier(frontier.parts, DOMAINS, 5);
    const { parts } = await frontier.reopen();
    await loadWindows(parts, 1000);
    let serial = 0;
    let leasedCount = 0;
    for (let round = 0; round < 12; round += 1) {
      const lease = await leaseFrom(parts, { taskCount: 10, workerId: `w${round % 3}` });
      leasedCount += lease.task_list.length;
      // Links into other domains' queues: some sort before their windows' last entries.
      await parts.reportApplier.report(
        doneReportOf(lease, (task) => {
          serial += 1;
          const target = DOMAINS[(DOMAINS.indexOf(task.domain) + 1) % DOMAINS.length];
          return [
            link(`https://${target}/found-${serial}`),
            link(`https://${task.domain}/a-${serial}`),
          ];
        }),
      );
      expect(await expectWindowsMatchStorage(parts)).toBe(DOMAINS.length);
    }
    expect(leasedCount).toBe(120);
  });

  it('switched off (--due-window-size 0), hold nothing: every queue head is read from storage', async () => {
    frontier = await openTestFrontier({ settings: { dueWindowSize: 0 } });
    await seedTestFrontier(frontier.parts, DOMAINS, 2);
    const { parts } = await frontier.reopen();
    expect(await loadWindows(parts, 1000)).toBe(0);
    const scans = jest.spyOn(parts.tables.dueIndex, 'scanKeys');
    const lease = await leaseFrom(parts, { taskCount: DOMAINS.length });
    expect(lease.task_list).toHaveLength(DOMAINS.length);
    expect(scans).toHaveBeenCalledTimes(DOMAINS.length);
    expect(parts.dueWindows.domainCount).toBe(0);
  });
});
