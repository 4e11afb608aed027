import { link } from '../testing/contract-fixtures';
import {
  doneReportOf,
  leaseFrom,
  openTestFrontier,
  seedTestFrontier,
  type TestFrontier,
} from '../testing/test-frontier';
import type { FrontierParts } from './assemble-frontier';

function urlCountOf(parts: FrontierParts, nowMs: number): number {
  return parts.summary
    .summarize(10, nowMs)
    .url_state_list.reduce((sum, state) => sum + state.url_count, 0);
}

describe('the known-url set (link de-duplication from memory)', () => {
  let frontier: TestFrontier;

  afterEach(() => frontier.dispose());

  it('after a restart, knows every URL stored before it and every one staged since, without reading storage', async () => {
    frontier = await openTestFrontier();
    await seedTestFrontier(frontier.parts, ['a.example', 'b.example'], 3);
    const restarted = await frontier.reopen();
    const { parts } = restarted;
    // Staged after the restart, before the stored URLs are read in.
    await parts.seedIntake.submit([{ url: 'https://b.example/staged-early' }]);

    expect(await parts.store.loadKnownUrls(() => false)).toBe(7);
    expect(parts.store.knownUrls).toMatchObject({ size: 7, isComplete: true });

    const hasMany = jest.spyOn(parts.tables.urlTasks, 'hasMany');
    const before = urlCountOf(parts, frontier.clock.nowMs());
    const lease = await leaseFrom(parts, { taskCount: 1 });
    await parts.reportApplier.report(
      doneReportOf(lease, () => [
        link('https://a.example/page-2'), // stored before the restart
        link('https://b.example/staged-early'), // staged after it
        link('https://a.example/discovered'), // new
      ]),
    );
    expect(urlCountOf(parts, frontier.clock.nowMs())).toBe(before + 1);
    const again = await parts.seedIntake.submit([
      { url: 'https://a.example/discovered' },
      { url: 'https://a.example/page-0' },
    ]);
    expect(again.rejected_list.map((rejected) => rejected.reject_reason)).toEqual([
      'duplicate_url',
      'duplicate_url',
    ]);
    expect(hasMany).not.toHaveBeenCalled();
    expect(parts.store.knownUrls.size).toBe(8);
  });

  it('reads storage for presence until the set is complete (a stopped load leaves it incomplete)', async () => {
    frontier = await openTestFrontier();
    await seedTestFrontier(frontier.parts, ['a.example'], 2);
    const { parts } = await frontier.reopen();
    expect(await parts.store.loadKnownUrls(() => true)).toBeUndefined();
    expect(parts.store.knownUrls.isComplete).toBe(false);

    const hasMany = jest.spyOn(parts.tables.urlTasks, 'hasMany');
    const outcome = await parts.seedIntake.submit([
      { url: 'https://a.example/page-1' },
      { url: 'https://a.example/page-9' },
    ]);
    expect(outcome.accepted_count).toBe(1);
    expect(outcome.rejected_list.map((rejected) => rejected.reject_reason)).toEqual([
      'duplicate_url',
    ]);
    expect(hasMany).toHaveBeenCalled();
  });
});
