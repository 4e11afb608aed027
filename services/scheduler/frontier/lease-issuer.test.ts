import { ruleFor } from '../testing/contract-fixtures';
import { seedUrls } from '../testing/lease-helpers';
import {
  doneReportOf,
  leaseFrom,
  openTestFrontier,
  seedTestFrontier,
  type TestFrontier,
} from '../testing/test-frontier';

/*
 * The lease path without HTTP: the frontier's parts over real LMDB with a manual clock, so an
 * interval passes or a lease expires when the test says so.
 */
describe('LeaseIssuer', () => {
  let frontier: TestFrontier;

  afterEach(() => frontier.dispose());

  it('reads the queue heads of a lease’s domains together (one round of storage reads, not one per domain)', async () => {
    frontier = await openTestFrontier();
    const domains = Array.from({ length: 12 }, (_, index) => `d${index}.example`);
    await seedTestFrontier(frontier.parts, domains, 2);
    const { tables, store } = frontier.parts;
    // Every queue read takes a turn of the event loop, as a network round trip would.
    let inFlight = 0;
    let mostInFlight = 0;
    const scanKeys = tables.dueIndex.scanKeys.bind(tables.dueIndex);
    jest.spyOn(tables.dueIndex, 'scanKeys').mockImplementation(async (options) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return scanKeys(options);
    });
    const readUrlTasks = jest.spyOn(store, 'readUrlTasks');

    const lease = await leaseFrom(frontier.parts, { taskCount: 12 });
    expect(new Set(lease.task_list.map((task) => task.domain))).toEqual(new Set(domains));
    expect(mostInFlight).toBe(12);
    // The twelve head documents in one read.
    expect(readUrlTasks.mock.calls.map(([hashes]) => hashes.length)).toEqual([12]);
  });

  it('writes the lease record and nothing else: url_task and the due entries stay as they were', async () => {
    frontier = await openTestFrontier({ settings: { domainInFlightCap: 10 } });
    await seedTestFrontier(frontier.parts, ['news.example'], 2);
    const { tables, store } = frontier.parts;
    const writtenBefore = frontier.storage.writes.length;
    const lease = await leaseFrom(frontier.parts);
    expect(lease.task_list).toHaveLength(2);
    const written = frontier.storage.writes.slice(writtenBefore);
    expect(written).toEqual([expect.stringMatching(/^put scheduler:lease_task:l-/)]);
    const record = await tables.leaseTasks.get(lease.lease_id);
    expect(record?.task_list.map((task) => task.url_hash).sort()).toEqual(
      lease.task_list.map((task) => task.url_hash).sort(),
    );
    const hashes = lease.task_list.map((task) => task.url_hash);
    const stored = await tables.urlTasks.getMany(hashes);
    expect(stored.map((task) => task?.url_state)).toEqual(['queued', 'queued']);
    const seen = await store.readUrlTasks(hashes);
    expect(seen.map((task) => task?.url_state)).toEqual(['leased', 'leased']);
    // The entries stay (the picker passes over held URLs): nothing more is due.
    expect((await tables.dueIndex.scan({ limit: 10 })).rows).toHaveLength(2);
    expect((await leaseFrom(frontier.parts, { workerId: 'w2' })).task_list).toEqual([]);
  });

  it('serves a domain once per min_interval_ms and up to its in-flight cap, never one URL twice', async () => {
    frontier = await openTestFrontier({ settings: { domainInFlightCap: 2 } });
    await seedTestFrontier(frontier.parts, ['slow.example'], 5, { min_interval_ms: 1000 });
    const leased = new Set<string>();
    const take = async () => {
      const lease = await leaseFrom(frontier.parts, { taskCount: 10 });
      for (const task of lease.task_list) {
        expect(leased.has(task.url_hash)).toBe(false);
        leased.add(task.url_hash);
      }
      return lease;
    };
    const first = await take();
    expect(first.task_list).toHaveLength(1);
    // The downloader is new to the domain: it fetches robots.txt first, which takes a slot too.
    frontier.clock.advance(1999);
    expect((await take()).task_list).toHaveLength(0);
    frontier.clock.advance(1);
    expect((await take()).task_list).toHaveLength(1);
    frontier.clock.advance(999);
    expect((await take()).task_list).toHaveLength(0); // known now: one slot per task
    frontier.clock.advance(1);
    expect((await take()).task_list).toHaveLength(0); // the in-flight cap (2) binds
    await frontier.parts.reportApplier.report(doneReportOf(first));
    expect((await take()).task_list).toHaveLength(1);
  });

  it('re-leases the URLs of an expired lease, on the lease path itself', async () => {
    frontier = await openTestFrontier({ settings: { domainInFlightCap: 10 } });
    await seedTestFrontier(frontier.parts, ['news.example'], 3);
    const first = await leaseFrom(frontier.parts, { leaseTtlSeconds: 10 });
    frontier.clock.advance(10_000);
    const second = await leaseFrom(frontier.parts, { workerId: 'w2' });
    expect(second.task_list.map((task) => task.url_hash).sort()).toEqual(
      first.task_list.map((task) => task.url_hash).sort(),
    );
    expect(frontier.parts.leases.get(first.lease_id)).toBeUndefined();
  });

  it('parks a call with wait_ms until work is due, and answers it then', async () => {
    frontier = await openTestFrontier({ settings: { domainInFlightCap: 10 } });
    await frontier.parts.ruleIntake.submit([ruleFor('news.example')]);
    const parked = leaseFrom(frontier.parts, { waitMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(frontier.parts.waiters.parkedCount).toBe(1);
    await frontier.parts.seedIntake.submit(seedUrls(['news.example'], 2));
    frontier.parts.waiters.notify(); // what the facade does after admitting URLs
    expect((await parked).task_list).toHaveLength(2);
    expect(frontier.parts.waiters.parkedCount).toBe(0);
  });

  it('answers a parked call empty when its wait ends, and at once when stopping', async () => {
    frontier = await openTestFrontier();
    const startedAt = Date.now();
    expect((await leaseFrom(frontier.parts, { waitMs: 200 })).task_list).toEqual([]);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(190);
    const parked = leaseFrom(frontier.parts, { waitMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    frontier.parts.waiters.stop();
    expect((await parked).task_list).toEqual([]);
    expect(Date.now() - startedAt).toBeLessThan(5000);
  });
});
