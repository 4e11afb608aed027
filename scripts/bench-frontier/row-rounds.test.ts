import { medianRun, roundByRoundText, roundCountOf, roundsAtStage, runsText } from './row-rounds';
import type { LoadMeasurement } from './scheduler-load';

function run(urlsPerSecond: number, p99Ms = 1): LoadMeasurement {
  return {
    urlsPerSecond,
    p50Ms: 1,
    p99Ms,
    intervalViolationCount: 0,
    processedCount: 1000,
    clientCpuMicrosecondsPerUrl: 10,
  };
}

describe('row rounds', () => {
  it('judges a row by its run of median throughput, whole', () => {
    const runs = [run(9000, 30), run(12_000, 10), run(10_000, 20)];
    expect(medianRun(runs)).toBe(runs[2]);
    expect(medianRun([run(5)])).toEqual(run(5));
    // An even count: the lower middle run, for both sides alike.
    const even = [run(4), run(1), run(3), run(2)];
    expect(medianRun(even)).toBe(even[3]);
    expect(() => medianRun([])).toThrow('a row without runs has no median');
  });

  it('lists each run in the order measured', () => {
    expect(runsText([run(9000.4), run(12_000), run(10_000.6)])).toBe('9000 12000 10001');
  });

  it('takes its rounds from BENCH_FRONTIER_ROUNDS, 5 unless told, refusing what is not a count', () => {
    expect(roundCountOf({})).toBe(5);
    expect(roundCountOf({ BENCH_FRONTIER_ROUNDS: '1' })).toBe(1);
    expect(roundCountOf({ BENCH_FRONTIER_ROUNDS: '5' })).toBe(5);
    for (const text of ['0', '-1', '2.5', 'three', '']) {
      expect(() => roundCountOf({ BENCH_FRONTIER_ROUNDS: text })).toThrow('BENCH_FRONTIER_ROUNDS');
    }
  });

  it('runs more rounds at a stage whose runs are cut short, up to three times as many', () => {
    // 100k and 1M: a run measures the full 30,000 URLs.
    expect(roundsAtStage(3, 30_000, 30_000)).toBe(3);
    // 10k: 5,000 URLs a run (half the stage) — six runs' worth, capped at three times the rounds.
    expect(roundsAtStage(3, 5_000, 30_000)).toBe(9);
    expect(roundsAtStage(3, 15_000, 30_000)).toBe(6);
    expect(roundsAtStage(1, 20_000, 30_000)).toBe(2);
    // A knob asking for runs longer than the default stays at the rounds asked for.
    expect(roundsAtStage(3, 30_000, 10_000)).toBe(3);
    expect(() => roundsAtStage(3, 0, 30_000)).toThrow('a run of 0 URLs measures nothing');
  });

  it('compares two sides round by round, the two runs of each round with each other', () => {
    const ours = [run(10_900), run(9_500), run(12_000)];
    const theirs = [run(10_000), run(10_000), run(10_000)];
    expect(roundByRoundText(ours, theirs)).toBe('1.09 0.95 1.20; ahead in 2 of 3');
    // A tie counts as ahead ("at least"); a round one side lacks is left out.
    expect(roundByRoundText([run(100), run(50)], [run(100)])).toBe('1.00; ahead in 1 of 1');
    expect(roundByRoundText([], [run(1)])).toBe('; ahead in 0 of 0');
  });
});
