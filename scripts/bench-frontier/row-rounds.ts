import type { LoadMeasurement } from './scheduler-load';

/*
 * A row of bench:frontier measured once says little on a shared 2-core machine: the same code moves
 * ±15 % between runs, BullMQ's rows as much, and the machine's speed drifts over minutes (two A/Bs
 * of the same scheduler an hour apart: 68 and 84 µs of main thread per URL). So every row is
 * measured in rounds, the scheduler's and BullMQ's alternating at each worker count — both sides
 * meet the same spells of the machine — and each side is judged by its median run.
 */

/**
 * Rounds per row: BENCH_FRONTIER_ROUNDS, 5 unless told (3 until the fifty-first session, when a
 * bootstrap from the day's full runs had every row ahead in 0.31 of its draws with three rounds and
 * in 0.54 with five, fifteen at 10k: the verdict decided on noise; five take ~70 s more than three).
 */
export function roundCountOf(environment: NodeJS.ProcessEnv): number {
  const text = environment.BENCH_FRONTIER_ROUNDS ?? '5';
  const count = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(count) || count < 1) {
    throw new Error(`BENCH_FRONTIER_ROUNDS: ${JSON.stringify(text)} is not a whole number ≥ 1`);
  }
  return count;
}

/** At most this many times the rounds, at a stage whose runs are short (roundsAtStage). */
const SHORT_RUN_ROUND_FACTOR = 3;

/**
 * Rounds per row at a stage whose runs measure `runUrls` URLs each, where a run would measure
 * `fullRunUrls`: `rounds` — or, at a stage whose runs are cut short (at 10k a run measures 5,000
 * URLs, half the stage, so that no domain is asked twice within its interval), as many times more
 * as make up the URLs a full run measures, at most three times as many. A 5,000-URL run lasts
 * ~0.3 s, in which one slow spell of the machine or one collector's pause moves its figure by a
 * third: a 10k row was behind BullMQ in four of the eight full runs of 2026-12-07 that missed the
 * verdict, a side's three runs there 9,062–12,190 URLs/s in one row. Both sides run the same rounds.
 */
export function roundsAtStage(rounds: number, runUrls: number, fullRunUrls: number): number {
  if (!(runUrls > 0)) throw new Error(`a run of ${runUrls} URLs measures nothing`);
  const factor = Math.min(SHORT_RUN_ROUND_FACTOR, Math.ceil(fullRunUrls / runUrls));
  return rounds * Math.max(1, factor);
}

/**
 * The run of median throughput — the lower of the two middle ones for an even count, alike for
 * both sides — as a whole: its latencies and CPU figures are that run's, measured together.
 */
export function medianRun(runs: readonly LoadMeasurement[]): LoadMeasurement {
  if (runs.length === 0) throw new Error('a row without runs has no median');
  const sorted = [...runs].sort((left, right) => left.urlsPerSecond - right.urlsPerSecond);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Each run's throughput in the order measured, for the table: '10425 11012 10677'. */
export function runsText(runs: readonly LoadMeasurement[]): string {
  return runs.map((run) => run.urlsPerSecond.toFixed(0)).join(' ');
}

/**
 * Each round's ratio of one side's throughput to the other's, and in how many rounds the first side
 * was ahead: '1.09 0.95 1.20; ahead in 2 of 3'. The two runs of a round are measured one after the
 * other, so a spell of the machine that slows both drops out of their ratio — it does not drop out
 * of two medians, which may come from different rounds. Rounds one side lacks are left out.
 */
export function roundByRoundText(
  ours: readonly LoadMeasurement[],
  theirs: readonly LoadMeasurement[],
): string {
  const roundCount = Math.min(ours.length, theirs.length);
  const ratios = Array.from(
    { length: roundCount },
    (_, round) => ours[round].urlsPerSecond / theirs[round].urlsPerSecond,
  );
  const aheadCount = ratios.filter((ratio) => ratio >= 1).length;
  return `${ratios.map((ratio) => ratio.toFixed(2)).join(' ')}; ahead in ${aheadCount} of ${roundCount}`;
}
