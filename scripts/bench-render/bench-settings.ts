/**
 * What every contender shares, so the comparison differs only in the code under test: the
 * concurrency, the wait condition (wait_selector, then the engine's network-quiet window), the
 * timeouts, the browser binary and how often a browser is replaced.
 */

/** Pages rendering at once, for every contender (the target is stated at 4). */
export const BENCH_CONCURRENCY = 4;

/** The bench pages build this element only once their content XHR answered. */
export const WAIT_SELECTOR = '#content';

/** Bounds one render (navigation and all waits), as the contract's default `timeout_ms` does. */
export const RENDER_TIMEOUT_MS = 30_000;

/**
 * The render engine's page-complete rule (its defaults in render-engine.ts): settled once no
 * request is unfinished for 100 ms and no short timer is due, at most the network-quiet window
 * (400 ms without a request awaiting its answer), at most 2 s. The bench passes these numbers to
 * the engine and uses the engine's own wait code for the peers, so all contenders wait the same
 * way.
 */
export const SETTLE_MS = 100;
export const QUIET_WINDOW_MS = 400;
export const QUIET_WINDOW_CAP_MS = 2000;

/** The engine's default browser recycling; Crawlee's `retireBrowserAfterPageCount` is set to it. */
export const RECYCLE_AFTER_RENDER_COUNT = 200;

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Loopback addresses the bench site serves from: one "domain" each. Eight hosts for four
 * concurrent renders, so a per-domain limit of one request in flight never has to hold one back.
 * Kept apart from the demo site's defaults (127.0.0.2–4) and the tests' forbidden 127.0.0.9.
 */
export const BENCH_HOSTS: readonly string[] = Array.from(
  { length: 8 },
  (_, index) => `127.0.0.${11 + index}`,
);

/** The targets. */
export const TARGET_RATIO_TO_CRAWLEE = 1.3;
export const TARGET_RATIO_TO_BARE_LOOP = 0.8;
