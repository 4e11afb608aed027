import type { UrlTaskDocument } from '../frontier-documents';
import { queuedUrlTask, spreadUrlHashOf } from '../../testing/url-task-fixtures';
import { timeTextOf } from '../time-text';
import { censusedOf, type CensusedUrlTask } from '../url-task-census';
import { URL_STATES } from '../wire-types';
import { ResidentUrlStore } from './resident-url-store';
import { residentUrlTaskCensus } from './resident-url-task-census';

const LIVE_LEASE = 'l-00000000000000a1';
const OTHER_LEASE = 'l-00000000000000b2';

/** Every url_state, in and out of the due index, with and without a rank, over two domains. */
function everyKindOfTask(): UrlTaskDocument[] {
  const tasks: UrlTaskDocument[] = [];
  for (const state of URL_STATES) {
    for (const isInDueIndex of [true, false]) {
      for (const priorityRank of [3, null]) {
        const index = tasks.length;
        const domain = index % 2 === 0 ? 'a.example' : 'b.example';
        tasks.push(
          queuedUrlTask({
            url: `https://${domain}/${index}`,
            url_hash: spreadUrlHashOf(index),
            domain,
            url_state: state,
            is_in_due_index: isInDueIndex,
            priority_rank: priorityRank,
            due_at: timeTextOf(Date.UTC(2026, 7, 15, 7, 0, index)),
            // Some name the live lease as applied (a report a crash cut short), some another one.
            applied_lease_id: [null, LIVE_LEASE, OTHER_LEASE][index % 3],
          }),
        );
      }
    }
  }
  return tasks;
}

describe('residentUrlTaskCensus', () => {
  it('reads from the columns exactly what a recount reads from each stored document', () => {
    const store = new ResidentUrlStore();
    const tasks = everyKindOfTask();
    for (const task of tasks) store.put(task);
    // The live lease lists every queued URL and one the store never held.
    const listed = new Map(
      tasks
        .filter((task) => task.url_state === 'queued')
        .map((task): [string, string] => [task.url_hash, LIVE_LEASE]),
    );
    listed.set(spreadUrlHashOf(999), LIVE_LEASE);

    const visited: CensusedUrlTask[] = [];
    residentUrlTaskCensus(store).visitAll(listed, (task) => visited.push({ ...task }));

    expect(visited).toEqual(tasks.map((task) => censusedOf(task, listed)));
    // What the comparison rests on: held and due URLs are among them, and not all of them.
    const held = visited.filter((task) => task.isHeld);
    expect(held.length).toBeGreaterThan(0);
    expect(held.length).toBeLessThan(listed.size - 1); // the ones applied by the live lease are not
    const due = visited.filter((task) => task.isDue);
    expect(due).toHaveLength(1); // queued, in the index, ranked
    expect(Number.isNaN(due[0].dueAtMs)).toBe(false);
  });

  it('visits nothing in an empty store', () => {
    const visit = jest.fn();
    residentUrlTaskCensus(new ResidentUrlStore()).visitAll(new Map(), visit);
    expect(visit).not.toHaveBeenCalled();
  });
});
