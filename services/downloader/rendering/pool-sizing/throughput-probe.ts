/**
 * Past the point where the CPU is full, the CPU busy ratio cannot tell whether one more page
 * still helps: a bigger pool shares per-page overheads (frames, IPC, event-loop turns) and keeps
 * the CPU busy through each page's idle moments (network, timers, the settle wait), so pages/s may
 * keep rising at 100 % CPU — or stay flat while latency and memory grow. This probe asks the pages
 * themselves: with a full pool on a full CPU it measures pages/s at the current size, tries more
 * pages, and judges the step against the windows' own noise (NOISE_MARGIN standard errors,
 * estimated from how much the windows at each size differ among themselves):
 *
 *  - a step that paid (pages/s rose by at least MIN_GAIN_RATIO, beyond noise) is kept;
 *  - a step that cost nothing measurable is kept too while the pool stays within
 *    FREE_GROWTH_FACTOR times the size at which the CPU filled (`freeGrowthLimit`, from the
 *    sizer). On a full CPU each further page brings a few per cent at most (the bare puppeteer
 *    loop on the 2-core bench machine: 15.15 → 15.73 → 16.61 pages/s at 8 → 12 → 16 pages) —
 *    below the 5 % floor and inside the noise of the seconds a probe can afford — so a rule
 *    that demanded proof of every step stopped at 9–11 pages, while the bare loop's best was at
 *    16 in most sweeps and the downloader fixed at 16 rendered 4 % more than self-sized at 9–11
 *    in one pair of runs (bench:render, 2026-12-01/02; differences of this size sit inside the
 *    machine's run-to-run drift). Within the limit, more pages cost little CPU: they share the
 *    renderer processes (two per core), and the memory rules still watch them;
 *  - beyond the limit, or when pages/s fell, the step is undone whole, back to the last size
 *    that was kept, and the probe waits a while before trying again (conditions change: other
 *    load, other pages). Without the noise test, 5 % judged over ~6 s of completions — a few
 *    dozen renders — passed by chance: a soak saw the pool doubled up to 13 pages on such a
 *    "gain" and its memory 25 % higher until the sizer backed off.
 *
 * The first step is a quarter of the size (at least one page) and the step doubles after every
 * step kept (4 → 5 → 7 → 11, 12 → 15 → 21): a pool whose best lies at 16 on a machine where 4
 * already fill the CPU gets there in four probes (~30 s) instead of twelve — a one-page climb took
 * two minutes, longer than many crawls run at one load. A quarter, not one page, because what a
 * probe can see is relative: one page more at 12 pages is +8 % of pages, whose few per cent of
 * pages/s sit inside a probe's noise, and each such probe cost ~9 s — on the 2-core machine the
 * pool that filled its CPU at 11–12 pages took 11 → 12 → 13/14 → 15 → 16, ~30 s, of which a
 * bench:render round measured a part (2026-12-04).
 *
 * Pure: the sizer feeds it one window at a time and applies what it answers.
 */

/** Windows measured at each size before comparing (~6 s at 3 s windows). */
export const PROBE_WINDOW_COUNT = 2;
/** One page more must bring at least this much more pages/s to stay. */
export const MIN_GAIN_RATIO = 0.05;
/** …and a gain this many standard errors of the difference of the two means (window spread). */
export const NOISE_MARGIN = 2;
/** Pages that cost nothing are kept up to this many times the size at which the CPU filled. */
export const FREE_GROWTH_FACTOR = 2;
/** Windows to wait after a probe that was undone (~45 s). */
export const PROBE_COOLDOWN_WINDOWS = 15;

export type ProbeState =
  | { readonly kind: 'idle'; readonly cooldownWindowCount: number }
  | {
      readonly kind: 'measuring';
      readonly size: number;
      readonly rates: readonly number[];
      /** Pages the next probe adds. */
      readonly step: number;
    }
  | {
      readonly kind: 'probing';
      readonly fromSize: number;
      /** Pages/s of each window measured at fromSize. */
      readonly baseRates: readonly number[];
      readonly size: number;
      readonly rates: readonly number[];
      /** Pages this probe added. */
      readonly step: number;
    };

export const IDLE_PROBE: ProbeState = { kind: 'idle', cooldownWindowCount: 0 };

/** Pages the first probe from `size` adds: a quarter of them, at least one (see above). */
export function firstProbeStepOf(size: number): number {
  return Math.max(1, Math.round(size / 4));
}

export interface ProbeStep {
  readonly state: ProbeState;
  /** A size to apply now: one page more (probe) or back (no gain). */
  readonly resize?: {
    readonly size: number;
    readonly reason: 'throughput_probe' | 'throughput_flat';
  };
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * The standard error of mean(after) − mean(before), from the windows' spread around their own
 * means (pooled variance): what the difference would be from noise alone.
 */
function standardErrorOfGain(before: readonly number[], after: readonly number[]): number {
  const squares = (values: readonly number[]) => {
    const center = mean(values);
    return values.reduce((sum, value) => sum + (value - center) ** 2, 0);
  };
  const degreesOfFreedom = before.length + after.length - 2;
  if (degreesOfFreedom <= 0) return 0;
  const variance = (squares(before) + squares(after)) / degreesOfFreedom;
  return Math.sqrt(variance / before.length + variance / after.length);
}

/** Whether pages/s at the probed size beat those at the size before by more than chance. */
export function isRealGain(baseRates: readonly number[], rates: readonly number[]): boolean {
  const gain = mean(rates) - mean(baseRates);
  return (
    gain > 0 &&
    gain >= mean(baseRates) * MIN_GAIN_RATIO &&
    gain > NOISE_MARGIN * standardErrorOfGain(baseRates, rates)
  );
}

/** Whether pages/s at the probed size fell below those at the size before by more than chance. */
export function isRealLoss(baseRates: readonly number[], rates: readonly number[]): boolean {
  // The same test with the sizes swapped: the smaller pool beat the bigger one.
  return isRealGain(rates, baseRates);
}

/**
 * One window at `size`, in the regime the probe is for (`isEligible`: a full pool on a full CPU,
 * nothing else asking to shrink). Outside it, a measurement in progress is dropped — except that a
 * probe in progress is judged as failed when the regime ended because of it. `freeGrowthLimit`:
 * the largest size at which a step that cost nothing is kept (see above).
 */
export function stepThroughputProbe(
  state: ProbeState,
  window: {
    readonly size: number;
    readonly completedPerSecond: number;
    readonly isEligible: boolean;
  },
  maxSize: number,
  freeGrowthLimit: number,
): ProbeStep {
  if (state.kind === 'idle') {
    if (state.cooldownWindowCount > 0) {
      return { state: { kind: 'idle', cooldownWindowCount: state.cooldownWindowCount - 1 } };
    }
    if (!window.isEligible || window.size >= maxSize) return { state };
    return {
      state: {
        kind: 'measuring',
        size: window.size,
        rates: [window.completedPerSecond],
        step: firstProbeStepOf(window.size),
      },
    };
  }
  if (!window.isEligible || window.size !== state.size) {
    // A probe that ended the regime (more pages, and now something objects) waits before the next.
    const cooldownWindowCount = state.kind === 'probing' ? PROBE_COOLDOWN_WINDOWS : 0;
    return { state: { kind: 'idle', cooldownWindowCount } };
  }
  const rates = [...state.rates, window.completedPerSecond];
  if (rates.length < PROBE_WINDOW_COUNT) return { state: { ...state, rates } };
  if (state.kind === 'measuring') {
    if (state.size >= maxSize) return { state: IDLE_PROBE };
    const size = Math.min(maxSize, state.size + state.step);
    return {
      state: {
        kind: 'probing',
        fromSize: state.size,
        baseRates: rates,
        size,
        rates: [],
        step: size - state.size,
      },
      resize: { size, reason: 'throughput_probe' },
    };
  }
  const isFree = state.size <= freeGrowthLimit && !isRealLoss(state.baseRates, rates);
  if (isRealGain(state.baseRates, rates) || isFree) {
    // Kept: measure from here for the next, twice as long step.
    return { state: { kind: 'measuring', size: state.size, rates, step: 2 * state.step } };
  }
  return {
    state: { kind: 'idle', cooldownWindowCount: PROBE_COOLDOWN_WINDOWS },
    resize: { size: state.fromSize, reason: 'throughput_flat' },
  };
}
