import type { UrlTaskDocument } from '../frontier-documents';
import { queuedUrlTask, spreadUrlHashOf } from '../../testing/url-task-fixtures';
import { timeTextOf } from '../time-text';
import { DocumentTallies, type DomainTally, type ListedUrls } from '../url-task-census';
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

/** Due URLs whose heads the tallies must find: the best one no live lease holds. */
function dueTasks(): UrlTaskDocument[] {
  const due = (
    index: number,
    domain: string,
    rank: number,
    dueSecond: number,
    applied: string | null,
  ) =>
    queuedUrlTask({
      url: `https://${domain}/due-${index}`,
      url_hash: spreadUrlHashOf(1000 + index),
      domain,
      url_state: 'queued',
      is_in_due_index: true,
      priority_rank: rank,
      due_at: timeTextOf(Date.UTC(2026, 7, 15, 7, 0, dueSecond)),
      applied_lease_id: applied,
    });
  return [
    due(0, 'a.example', 1, 5, null), // held: listed by the live lease, never applied
    due(1, 'a.example', 1, 9, null),
    due(2, 'a.example', 2, 1, null),
    due(3, 'b.example', 3, 2, null),
    due(4, 'b.example', 3, 1, LIVE_LEASE), // listed, but the live lease's report was applied to it
  ];
}

/** The tallies a pass over the documents finds (the recount's path without a census). */
function talliesOfDocuments(tasks: readonly UrlTaskDocument[], listed: ListedUrls): DomainTally[] {
  const tallies = new DocumentTallies(listed);
  for (const task of tasks) tallies.add(task);
  return [...tallies.all()];
}

const byDomain = (left: DomainTally, right: DomainTally) => (left.domain < right.domain ? -1 : 1);

describe('residentUrlTaskCensus', () => {
  it('tallies from the columns exactly what a pass over the stored documents tallies', () => {
    const store = new ResidentUrlStore();
    const tasks = [...everyKindOfTask(), ...dueTasks()];
    for (const task of tasks) store.put(task);
    // The live lease lists every queued URL but one due one, and a URL the store never held.
    const listed = new Map(
      tasks
        .filter((task) => task.url_state === 'queued' && !task.url.endsWith('/due-1'))
        .map((task): [string, string] => [task.url_hash, LIVE_LEASE]),
    );
    listed.set(spreadUrlHashOf(999), LIVE_LEASE);

    const tallies = residentUrlTaskCensus(store).tallyAll(listed).sort(byDomain);

    expect(tallies).toEqual(talliesOfDocuments(tasks, listed).sort(byDomain));
    // What the comparison rests on: every URL counted, due URLs counted whether held or not, and
    // each head the best due URL no live lease holds.
    expect(tallies.reduce((sum, tally) => sum + tally.urlCount, 0)).toBe(tasks.length);
    expect(tallies.map(({ domain, stored, head }) => ({ domain, due: stored.due, head }))).toEqual([
      { domain: 'a.example', due: 4, head: { rank: 1, dueAtMs: Date.UTC(2026, 7, 15, 7, 0, 9) } },
      { domain: 'b.example', due: 2, head: { rank: 3, dueAtMs: Date.UTC(2026, 7, 15, 7, 0, 1) } },
    ]);
  });

  it('tallies nothing in an empty store', () => {
    expect(residentUrlTaskCensus(new ResidentUrlStore()).tallyAll(new Map())).toEqual([]);
  });
});
