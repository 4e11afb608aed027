/**
 * What every contender shares, so the comparison differs only in the code under test: the wait
 * condition (wait_selector, then the engine's page-complete rule), the timeouts, the browser
 * binary and how often a browser is replaced. Concurrency is each contender's own best: the
 * downloader sizes its pool itself, Crawlee autoscales, the bare loop is swept.
 */
import { configuredChromiumPath } from '../../services/common/chromium/chromium-executable';
import { DEFAULT_RECYCLE_AFTER_RENDER_COUNT } from '../../services/downloader/rendering/page-pool';

/** Concurrencies the bare loop runs at; its best is the one it is judged by. */
export const BARE_LOOP_SWEEP: readonly number[] = [2, 4, 6, 8, 12, 16];

/**
 * The most any contender may run at once: the downloader's max_concurrent_count (its pool sizes
 * itself below it), Crawlee's maxConcurrency and the top of the bare loop's sweep.
 */
export const MAX_BENCH_CONCURRENCY = 16;

/** Renders the bench client keeps in flight against the downloader (it sizes its pool itself). */
export const DOWNLOADER_OFFERED_CONCURRENCY = MAX_BENCH_CONCURRENCY;

/**
 * The downloader's per-domain in-flight cap in the bench (its default), which the bench's client
 * keeps to as a scheduler's leases do: 16 renders over the 8 hosts, never a third to one host.
 */
export const DOWNLOADER_DOMAIN_IN_FLIGHT_CAP = 2;

/**
 * Fixed concurrency of the engine-only row (it has no brake to size against): the top of the bare
 * loop's sweep, where the bare loop does best on the bench machine, so that the engine next to the
 * bare loop @16 and the service self-sized near 16 tells which layer costs what (`--contenders
 * engine,bare,service --bare-sweep 16`, 2026-12-03, 2 cores: engine 22.42 pages/s at 83 ms CPU per
 * page, bare loop 22.77 at 82, service 20.14 at 87 — the engine is at par with the bare loop; the
 * gap is the service around it). At 4 pages the row said nothing about either.
 */
export const ENGINE_FALLBACK_CONCURRENCY = MAX_BENCH_CONCURRENCY;

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

/**
 * Renders a browser takes before it is replaced, for every contender that replaces browsers (the
 * downloader, the engine, Crawlee's `retireBrowserAfterPageCount`): more than any round renders,
 * so no contender replaces its browser inside a measured window. The bench compares rendering at
 * steady state; the fixed-size contenders (the bare loop's sweep, the engine) render 432 pages a
 * round and never reached the engine's default of 1000, while the self-sizing ones, with their
 * longer warm-up (1120 pages), replaced theirs inside the measured pages — one launch, cold
 * caches and two browsers side by side charged to 400 pages instead of the 1000 it serves, and
 * the peak PSS taken at the overlap (`--contenders engine,bare,service --bare-sweep 16`,
 * 2026-12-03: the service self-sized 19.17 pages/s at 91 ms CPU per page with the replacement in
 * its window; the engine given the same warm-up 19.72 / 94 with it, 21.65 / 86 without). What
 * replacing a browser every DEFAULT_RECYCLE_AFTER_RENDER_COUNT renders costs over time is
 * soak:render's to show: it runs at the downloader's defaults.
 */
export const RECYCLE_AFTER_RENDER_COUNT = 10 * DEFAULT_RECYCLE_AFTER_RENDER_COUNT;

/** The browser every contender runs (chromium-executable.ts): the headless shell by default. */
export const CHROMIUM_PATH = configuredChromiumPath();

/**
 * Loopback addresses the bench site serves from: one "domain" each. Eight hosts for four
 * concurrent renders, so a per-domain limit of one request in flight never has to hold one back.
 * Kept apart from the demo site's defaults (127.0.0.2–4) and the tests' forbidden 127.0.0.9.
 */
export const BENCH_HOSTS: readonly string[] = Array.from(
  { length: 8 },
  (_, index) => `127.0.0.${11 + index}`,
);

/**
 * The many-domain round: loopback hosts of their own (127.0.1.1 …), every page asked with this
 * min_interval_ms, pages listed host by host so that politeness, not rendering, decides when a
 * page may go.
 */
export const MANY_DOMAIN_HOST_COUNT = 120;
export const MANY_DOMAIN_PAGES_PER_HOST = 2;
export const MANY_DOMAIN_MIN_INTERVAL_MS = 1000;

export function manyDomainHosts(count: number): string[] {
  return Array.from(
    { length: count },
    (_, index) => `127.0.${1 + Math.floor(index / 250)}.${1 + (index % 250)}`,
  );
}

/** The targets. */
export const TARGET_RATIO_TO_CRAWLEE = 1.3;
export const TARGET_RATIO_TO_BARE_LOOP = 0.95;

/** The api-path round: client-rendered demo hosts (127.0.0.41 …) whose pages come from /api/page. */
export const API_ROUND_HOSTS: readonly string[] = Array.from(
  { length: 6 },
  (_, index) => `127.0.0.${41 + index}`,
);
/** The expectation for the api path: an order of magnitude over rendering. */
export const TARGET_API_RATIO_TO_RENDER = 10;
/** Tasks per phase of the api-path round: enough for seconds of work on each path. */
export const API_ROUND_API_TASK_COUNT = 600;
export const API_ROUND_RENDER_TASK_COUNT = 120;
