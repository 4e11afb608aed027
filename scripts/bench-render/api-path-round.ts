import { normalizeUrl } from '../../services/common/url/normalize-url';
import { startTestDownloader } from '../../services/downloader/testing/downloader-test-harness';
import {
  FAKE_SCHEDULER_TOKEN,
  leaseTaskFor,
  startFakeScheduler,
  type FakeScheduler,
  type LeaseTask,
} from '../../services/downloader/testing/fake-scheduler';
import { leaseAndReportOn } from '../../services/downloader/testing/lease-and-report';
import { DISALLOWED_PATH_PREFIX, DEMO_PAGES } from '../demo-site/demo-site-map';
import { startDemoSite } from '../demo-site/demo-site';
import type { Verdict } from './bench-report';
import { API_ROUND_HOSTS, TARGET_API_RATIO_TO_RENDER } from './bench-settings';

export interface ApiPathRoundOptions {
  /** api tasks measured (the same pages, repeated). */
  readonly apiTaskCount: number;
  /** render tasks measured (rendering is slower: fewer keep the round short). */
  readonly renderTaskCount: number;
  readonly downloaderArguments: readonly string[];
  readonly signal: AbortSignal;
}

/** Longest one phase may take before the round gives up (a stuck downloader). */
const PHASE_TIMEOUT_MS = 180_000;
const PROGRESS_INTERVAL_MS = 5000;

interface PhaseResult {
  readonly label: string;
  readonly taskCount: number;
  readonly seconds: number;
  readonly pagesPerSecond: number;
  /** How many results said what the phase is about (render_strategy) and done. */
  readonly doneCount: number;
  readonly otherCount: number;
}

/**
 * The api path against rendering, end to end through entry A: a real downloader (in this process)
 * leasing from a fake scheduler, the demo site's client-rendered hosts on loopback (content XHR
 * without delay, no crawl-delay, min_interval_ms 0). The same pages are leased as `api` tasks
 * (the endpoint mapping of CONTRACT.md §八: `/api/page?path={path}`) and then as `render` tasks;
 * pages/s = tasks / time from queueing to the last report. The issue expects api ≥ 10× render.
 */
export async function runApiPathRound(options: ApiPathRoundOptions): Promise<Verdict[]> {
  const site = await startDemoSite({
    hosts: API_ROUND_HOSTS,
    crawlDelaySeconds: 0,
    contentXhrDelayMs: 0,
    clientRenderedHosts: API_ROUND_HOSTS,
  });
  const scheduler = await startFakeScheduler();
  const downloader = await startTestDownloader({
    allowDestinations: site.hosts,
    scheduler: { url: scheduler.url, token: FAKE_SCHEDULER_TOKEN },
    extraArguments: [
      '--lease-wait-ms',
      '1000',
      '--lease-task-count',
      '50',
      ...options.downloaderArguments,
    ],
  });
  try {
    const pageUrls = site.baseUrls.flatMap((baseUrl) =>
      DEMO_PAGES.filter(
        (page) => page.kind === 'static' && !page.path.startsWith(DISALLOWED_PATH_PREFIX),
      ).map((page) => normalizeUrl(`${baseUrl}${page.path}`)),
    );
    const apiEndpointOf = (baseUrl: string) => ({
      page_url_pattern: `^${baseUrl.replace(/[.]/g, '\\.')}(?<path>/[^?#]*)$`,
      endpoint_url_template: `${baseUrl}/api/page?path={path}`,
      content_pointer: '',
    });
    const tasksOf = (count: number, strategy: 'api' | 'render'): LeaseTask[] =>
      Array.from({ length: count }, (_, index) => {
        const url = pageUrls[index % pageUrls.length];
        return leaseTaskFor(url, {
          render_strategy: strategy,
          api_endpoint: apiEndpointOf(new URL(url).origin),
          timeout_ms: 15_000,
        });
      });
    console.log(
      `\n▶ api-path round: ${pageUrls.length} client-rendered pages over ${site.hosts.length} demo hosts ` +
        `(${site.hosts[0]}…${site.hosts.at(-1)}), content XHR without delay, min_interval_ms 0; ` +
        `${options.apiTaskCount} api tasks, then ${options.renderTaskCount} render tasks of the same pages`,
    );
    // Warm-up: Chromium started, robots.txt of every host cached, both paths exercised once.
    await runPhase(
      scheduler,
      'warm-up',
      [...tasksOf(pageUrls.length, 'render'), ...tasksOf(pageUrls.length, 'api')],
      options.signal,
    );
    const api = await runPhase(
      scheduler,
      'api',
      tasksOf(options.apiTaskCount, 'api'),
      options.signal,
    );
    const render = await runPhase(
      scheduler,
      'render',
      tasksOf(options.renderTaskCount, 'render'),
      options.signal,
    );
    const ratio = api.pagesPerSecond / render.pagesPerSecond;
    for (const phase of [api, render]) {
      console.log(
        `  ${phase.label.padEnd(6)} ${phase.taskCount} tasks in ${phase.seconds.toFixed(2)} s = ` +
          `${phase.pagesPerSecond.toFixed(1)} pages/s (${phase.doneCount} done as ${phase.label}` +
          `${phase.otherCount > 0 ? `, ${phase.otherCount} otherwise` : ''})`,
      );
    }
    return [
      {
        isPass: ratio >= TARGET_API_RATIO_TO_RENDER,
        text:
          `api path: ${api.pagesPerSecond.toFixed(1)} pages/s vs rendering ` +
          `${render.pagesPerSecond.toFixed(1)} pages/s = ${ratio.toFixed(1)}× ` +
          `(target ≥ ${TARGET_API_RATIO_TO_RENDER}×)`,
      },
      {
        isPass: api.otherCount === 0 && render.otherCount === 0,
        text: `api path: ${api.otherCount + render.otherCount} tasks not done the way they were leased`,
      },
    ];
  } finally {
    await downloader.dispose();
    await Promise.all([scheduler.close(), site.stop()]);
  }
}

/** Queues the tasks and waits for every lease's report, printing progress. */
async function runPhase(
  scheduler: FakeScheduler,
  label: string,
  tasks: LeaseTask[],
  signal: AbortSignal,
): Promise<PhaseResult> {
  const reportsBefore = scheduler.reports.length;
  const startedAtMs = Date.now();
  let lastPrintMs = startedAtMs;
  const printProgress = () => {
    signal.throwIfAborted();
    if (Date.now() - lastPrintMs < PROGRESS_INTERVAL_MS) return;
    lastPrintMs = Date.now();
    const reportedCount = scheduler.reports
      .slice(reportsBefore)
      .reduce((sum, report) => sum + report.result_list.length, 0);
    console.log(`  ${label}: ${reportedCount}/${tasks.length} tasks reported`);
  };
  const finished = await leaseAndReportOn(scheduler, tasks, PHASE_TIMEOUT_MS, printProgress);
  const seconds = (Date.now() - startedAtMs) / 1000;
  const doneCount = finished.filter(
    (result) => result.fetch_status === 'done' && result.render_strategy === label,
  ).length;
  return {
    label,
    taskCount: tasks.length,
    seconds,
    pagesPerSecond: tasks.length / seconds,
    doneCount,
    // Left out of a report (held back) or reported otherwise.
    otherCount: tasks.length - doneCount,
  };
}
