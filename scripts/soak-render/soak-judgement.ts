import type { Verdict } from '../bench-render/bench-report';
import { median } from '../common/statistics';

/** One reported interval of the soak (a minute by default). */
export interface SoakInterval {
  readonly index: number;
  readonly pageCount: number;
  readonly pagesPerSecond: number;
  readonly failedCount: number;
  /** Mean over the interval's samples of the tree's summed RSS. */
  readonly meanRssBytes: number;
  readonly meanChromiumCount: number;
  readonly maxChromiumCount: number;
  /** The pool sizes seen in the interval. */
  readonly poolSizes: readonly number[];
}

/** Flat means within ±10 % of the median. */
export const FLAT_TOLERANCE_RATIO = 0.1;
/** Intervals judged need at least this many after the first (warm-up) one. */
const MIN_JUDGED_INTERVAL_COUNT = 2;

/** The intervals after the first: the first holds the browser start and the pool's sizing. */
function judged(intervals: readonly SoakInterval[]): readonly SoakInterval[] | undefined {
  const rest = intervals.slice(1);
  return rest.length >= MIN_JUDGED_INTERVAL_COUNT ? rest : undefined;
}

/** Every judged interval within ±10 % of their median. */
export function judgeFlat(
  name: string,
  intervals: readonly SoakInterval[],
  valueOf: (interval: SoakInterval) => number,
  format: (value: number) => string,
): Verdict {
  const rest = judged(intervals);
  if (rest === undefined) {
    return { isPass: false, text: `${name} flat: not judged (fewer than 3 intervals; run longer)` };
  }
  const values = rest.map(valueOf);
  const middle = median(values);
  const worst = values.reduce((far, value) =>
    Math.abs(value - middle) > Math.abs(far - middle) ? value : far,
  );
  const deviation = middle === 0 ? Infinity : Math.abs(worst - middle) / middle;
  return {
    isPass: deviation <= FLAT_TOLERANCE_RATIO,
    text:
      `${name} flat: median ${format(middle)}, farthest ${format(worst)} ` +
      `(${(deviation * 100).toFixed(1)} %, target ±${FLAT_TOLERANCE_RATIO * 100} %) ` +
      `over intervals 2–${intervals.length}`,
  };
}

/** The last judged interval no more than 10 % (and one process) above the first judged one. */
export function judgeNotGrowing(
  name: string,
  intervals: readonly SoakInterval[],
  valueOf: (interval: SoakInterval) => number,
): Verdict {
  const rest = judged(intervals);
  if (rest === undefined) {
    return { isPass: false, text: `${name} not growing: not judged (fewer than 3 intervals)` };
  }
  const first = valueOf(rest[0]);
  const last = valueOf(rest[rest.length - 1]);
  return {
    isPass: last <= first * (1 + FLAT_TOLERANCE_RATIO) + 1,
    text: `${name} not growing: ${first.toFixed(1)} in interval 2, ${last.toFixed(1)} in the last`,
  };
}
