import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DownloaderClient } from '../../../generated/downloader';
import {
  ContractHttpError,
  TooManyRequestsError,
} from '../../../services/common/contract-runtime/client-errors';
import { sleep } from '../../../services/common/backoff/abortable-sleep';
import {
  startServiceProcess,
  StartedServiceProcess,
} from '../../../services/common/testing/service-process';
import {
  CHROMIUM_PATH,
  DOWNLOADER_DOMAIN_IN_FLIGHT_CAP,
  DOWNLOADER_OFFERED_CONCURRENCY,
  MAX_BENCH_CONCURRENCY,
  QUIET_WINDOW_MS,
  RECYCLE_AFTER_RENDER_COUNT,
  RENDER_TIMEOUT_MS,
  SETTLE_MS,
  WAIT_SELECTOR,
} from '../bench-settings';
import type { ContenderRun } from '../contender-run';
import type { PageRecord } from '../page-record';
import { RenderedOnce, renderUrlStream } from '../page-stream';
import { ProcessTreeSampler } from '../process-tree';
import { resultOfWebPage } from '../web-page-result';
import { removeWorkDirectory } from '../../../services/common/testing/work-directory';

export interface DownloaderServiceSettings {
  /** Use a downloader already running there instead of starting one (its usage is unmeasured). */
  readonly externalUrl?: string;
  readonly externalToken?: string;
  /** Extra flags for the started downloader process (they win over the bench's environment). */
  readonly extraArguments: readonly string[];
  /** Flags for Node itself in the started process (e.g. `--cpu-prof`). */
  readonly nodeArguments?: readonly string[];
}

export interface DownloaderServiceRunOptions {
  readonly label: string;
  /** The bench site's addresses: the downloader's allow-list must be exactly these. */
  readonly hosts: readonly string[];
  readonly onRecord: (record: PageRecord) => void;
  readonly signal: AbortSignal;
  /** The whole run; renders still going after it are aborted. */
  readonly timeoutMs: number;
  /** Sent with every render (0 in the main rounds; the many-domain round's interval there). */
  readonly minIntervalMs?: number;
  /** In list order, not host-aware (the many-domain round: politeness must hold pages back). */
  readonly isInListOrder?: boolean;
}

/** A page held back this often by the downloader's own limit counts as failed. */
const MAX_OVER_LIMIT_ANSWERS_PER_PAGE = 50;

/**
 * The started downloader's settings (services/downloader/downloader-settings.ts), given as
 * environment variables so that a flag from `--downloader-arg` still wins: a render-only node
 * (entry B alone, no scheduler), an operator allow-list of exactly the bench's loopback addresses,
 * a self-sizing page pool under a brake of 16 (the top of the others' range), a per-domain
 * in-flight cap the bench's client keeps to, and the same page-complete rule, browser replacement
 * (RECYCLE_AFTER_RENDER_COUNT unless told otherwise) and browser as every other contender. The
 * data directory is a fresh temporary one (embedded LMDB unless STORAGE_BACKEND says otherwise).
 */
export function downloaderEnvironment(
  hosts: readonly string[],
  token: string,
  recycleAfterRenderCount = RECYCLE_AFTER_RENDER_COUNT,
): NodeJS.ProcessEnv {
  return {
    DOWNLOADER_TOKEN: token,
    DOWNLOADER_ALLOW_DESTINATIONS: hosts.join(','),
    DOWNLOADER_LEASE_LOOP: 'off',
    DOWNLOADER_PAGE_POOL_SIZE: 'auto',
    DOWNLOADER_MAX_CONCURRENT_COUNT: String(MAX_BENCH_CONCURRENCY),
    DOWNLOADER_DOMAIN_IN_FLIGHT_CAP: String(DOWNLOADER_DOMAIN_IN_FLIGHT_CAP),
    DOWNLOADER_SETTLE_MS: String(SETTLE_MS),
    DOWNLOADER_QUIET_WINDOW_MS: String(QUIET_WINDOW_MS),
    DOWNLOADER_RECYCLE_AFTER_RENDER_COUNT: String(recycleAfterRenderCount),
    CHROMIUM_PATH,
  };
}

/** Entry B as a caller uses it: its min_interval_ms, back off on 429 as told, no other retry. */
export async function renderThroughEntryB(
  client: DownloaderClient,
  url: string,
  signal: AbortSignal,
  minIntervalMs = 0,
): Promise<RenderedOnce> {
  for (let overLimitAnswerCount = 0; ; overLimitAnswerCount += 1) {
    try {
      const page = await client.renderPage(
        {
          url,
          should_render: true,
          wait_selector: WAIT_SELECTOR,
          timeout_ms: RENDER_TIMEOUT_MS,
          should_store: true,
          min_interval_ms: minIntervalMs,
        },
        { signal },
      );
      return { result: resultOfWebPage(page), overLimitAnswerCount };
    } catch (error) {
      const isOverLimit = error instanceof TooManyRequestsError;
      if (!isOverLimit || overLimitAnswerCount >= MAX_OVER_LIMIT_ANSWERS_PER_PAGE) throw error;
      await sleep(Math.max(50, error.retryAfterSeconds * 1000), signal);
    }
  }
}

/** Reads the pool's size every second (GET /v1/operator/page-pool) for the report's notes. */
function watchPagePool(client: DownloaderClient): { stop(): Promise<string> } {
  const sizes: number[] = [];
  const reasons: string[] = [];
  const read = () =>
    client.getPagePool().then(
      (pool) => {
        sizes.push(pool.page_count);
        if (reasons.at(-1) !== pool.pool_size_reason) reasons.push(pool.pool_size_reason);
      },
      () => undefined,
    );
  void read();
  const timer = setInterval(() => void read(), 1000);
  return {
    stop: async () => {
      clearInterval(timer);
      await read();
      return `self-sized page pool over the run (1 s samples): ${sizes.join(' ')}; reasons: ${reasons.join(' → ')}`;
    },
  };
}

/**
 * One render of a warm-up URL before the run: says whether the full path can be measured at all.
 * A 501 skips the row; a refused destination is a set-up error. Anything else (a failed render)
 * is left to the run itself to count.
 */
async function checkEntryB(
  client: DownloaderClient,
  url: string,
  hosts: readonly string[],
  signal: AbortSignal,
  minIntervalMs = 0,
): Promise<Pick<ContenderRun, 'skippedBecause' | 'error'> | undefined> {
  try {
    await renderThroughEntryB(client, url, signal, minIntervalMs);
    return undefined;
  } catch (error) {
    if (!(error instanceof ContractHttpError)) return undefined;
    if (error.status === 501)
      return { skippedBecause: `POST /v1/render answers 501 ${error.errorCode}` };
    if (error.errorCode !== 'destination_not_allowed') return undefined;
    return {
      error:
        `the downloader refuses the bench hosts (${error.message}); its allow-list must be ` +
        `exactly ${hosts.join(', ')} (DOWNLOADER_ALLOW_DESTINATIONS)`,
    };
  }
}

/**
 * The downloader's full render path — entry B, POST /v1/render through the generated client,
 * against a real downloader process (rate-limit layer, robots check, render, storing the object),
 * started here unless an external one is given.
 */
export async function runDownloaderService(
  urls: readonly string[],
  settings: DownloaderServiceSettings,
  options: DownloaderServiceRunOptions,
): Promise<ContenderRun> {
  const { label } = options;
  const notes: string[] = [];
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  // Every render in flight (and every 429 back-off) listens on it.
  setMaxListeners(4 * DOWNLOADER_OFFERED_CONCURRENCY, signal);
  const dataDirectory = await mkdtemp(join(tmpdir(), 'bench-render-downloader-'));
  let started: StartedServiceProcess | undefined;
  let sampler: ProcessTreeSampler | undefined;
  try {
    let baseUrl = settings.externalUrl;
    let token = settings.externalToken ?? '';
    if (baseUrl === undefined) {
      token = randomBytes(24).toString('hex');
      started = await startServiceProcess(
        'downloader',
        ['--data-dir', dataDirectory, ...settings.extraArguments],
        downloaderEnvironment(options.hosts, token),
        30_000,
        settings.nodeArguments ?? [],
      );
      baseUrl = started.url;
      sampler = new ProcessTreeSampler(started.child.pid as number).start();
    } else {
      notes.push(`external downloader at ${baseUrl}: its memory and CPU are not measured`);
    }
    const client = new DownloaderClient({
      baseUrl,
      token,
      timeoutMs: RENDER_TIMEOUT_MS + 15_000,
      maximumAttemptCount: 1, // a 5xx is a failed render to count, not to hide by retrying
    });
    const unavailable = await checkEntryB(
      client,
      urls[0],
      options.hosts,
      signal,
      options.minIntervalMs,
    );
    if (unavailable !== undefined) return { label, records: [], notes, ...unavailable };
    const poolWatch = watchPagePool(client);
    const records = await renderUrlStream(
      urls,
      DOWNLOADER_OFFERED_CONCURRENCY,
      (url) => renderThroughEntryB(client, url, signal, options.minIntervalMs),
      options.onRecord,
      // As a scheduler leases: no host gets more renders at once than the downloader takes.
      { isInListOrder: options.isInListOrder, perHostLimit: DOWNLOADER_DOMAIN_IN_FLIGHT_CAP },
    );
    notes.push(await poolWatch.stop());
    return {
      label,
      records,
      usage: sampler?.stop(),
      notes,
      error: signal.aborted ? `aborted: ${String(signal.reason)}` : undefined,
    };
  } catch (error) {
    return { label, records: [], error: (error as Error).message, notes };
  } finally {
    sampler?.stop();
    await started?.stop(15_000);
    sampler?.killSurvivors();
    await removeWorkDirectory(dataDirectory);
  }
}
