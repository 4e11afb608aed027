import { seededRandom } from '../../common/testing/seeded-random';
import { DomainSchedule } from './domain-schedule';
import { ReadyDomainQueue } from './ready-domain-queue';

describe('ReadyDomainQueue', () => {
  it('serves bands in rank order and, inside a band, the domain available longest first', () => {
    const queue = new ReadyDomainQueue();
    const late = new DomainSchedule('late.example');
    const early = new DomainSchedule('early.example');
    const urgent = new DomainSchedule('urgent.example');
    queue.push(late, 10, 2000);
    queue.push(early, 10, 1000);
    queue.push(urgent, 0, 5000);
    expect(queue.ranks()).toEqual([0, 10]);
    expect(queue.popAvailable(0, 4000)).toBeUndefined(); // not available yet
    expect(queue.popAvailable(10, 4000)?.domain).toBe('early.example');
    expect(queue.popAvailable(10, 4000)?.domain).toBe('late.example');
    expect(queue.popAvailable(10, 4000)).toBeUndefined();
    expect(queue.readyCount).toBe(1);
  });

  it('takes turns: a domain pushed back at the same time goes behind those already waiting', () => {
    const queue = new ReadyDomainQueue();
    const [a, b, c] = ['a', 'b', 'c'].map((name) => new DomainSchedule(name));
    for (const schedule of [a, b, c]) queue.push(schedule, 5, 100);
    const served: string[] = [];
    for (let turn = 0; turn < 6; turn += 1) {
      const schedule = queue.popAvailable(5, 100);
      if (schedule === undefined) break;
      served.push(schedule.domain);
      queue.push(schedule, 5, 100);
    }
    expect(served).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('drops withdrawn and superseded entries lazily', () => {
    const queue = new ReadyDomainQueue();
    const moved = new DomainSchedule('moved.example');
    const gone = new DomainSchedule('gone.example');
    queue.push(moved, 5, 100);
    queue.push(moved, 7, 100); // re-banded: the rank-5 entry is stale
    queue.push(gone, 5, 50);
    queue.withdraw(gone);
    expect(queue.popAvailable(5, 1000)).toBeUndefined();
    expect(queue.popAvailable(7, 1000)?.domain).toBe('moved.example');
    expect(queue.readyCount).toBe(0);
  });

  it('serves exactly what a sorted list of the queued domains would, through random moves', () => {
    const random = seededRandom(12345);
    const next = (bound: number) => Math.floor(random() * bound);
    const queue = new ReadyDomainQueue();
    const schedules = Array.from({ length: 40 }, (_, index) => new DomainSchedule(`d${index}`));
    /** The model: each queued domain's band, time and order of queueing. */
    const model = new Map<DomainSchedule, { rank: number; at: number; order: number }>();
    let order = 0;
    // Mostly re-queues, few pops: superseded entries pile up past the bound that compacts a band
    // (once in this sequence), which must drop none that is live.
    for (let step = 0; step < 6000; step += 1) {
      const schedule = schedules[next(schedules.length)];
      const action = next(20);
      if (action < 16) {
        const rank = next(2);
        const at = next(50);
        queue.push(schedule, rank, at);
        model.set(schedule, { rank, at, order: (order += 1) });
      } else if (action < 18) {
        queue.withdraw(schedule);
        model.delete(schedule);
      } else {
        const rank = next(2);
        const nowMs = next(60);
        const expected = [...model.entries()]
          .filter(([, entry]) => entry.rank === rank && entry.at <= nowMs)
          .sort(([, left], [, right]) => left.at - right.at || left.order - right.order)[0]?.[0];
        expect(queue.popAvailable(rank, nowMs)).toBe(expected);
        if (expected !== undefined) model.delete(expected);
      }
      expect(queue.readyCount).toBe(model.size);
      const earliest = Math.min(...[...model.values()].map((entry) => entry.at));
      expect(queue.earliestAvailableAtMs()).toBe(earliest);
    }
  });
});
