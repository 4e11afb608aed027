import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DownloaderClient } from '../../generated/downloader';
import { SchedulerClient, type GetUrlTaskOutput } from '../../generated/scheduler';
import {
  startServiceProcess,
  type StartedServiceProcess,
} from '../../services/common/testing/service-process';
import { urlHash } from '../../services/common/url';
import { startDemoSite, type DemoSite } from '../demo-site/demo-site';
import type { OriginAccessLogEntry } from '../demo-site/origin-access-log';
import { runM0 } from '../m0/m0-steps';

/*
 * The whole system end to end, as M0 (CONTRACT.md §六) and beyond: real processes (scheduler,
 * downloaders), a real Chromium, real LMDB, the bundled demo site on loopback as the origin — and
 * the origin's own access log as the judge.
 */

const schedulerToken = 'e2e-scheduler-token-0123456789';
const downloaderToken = 'e2e-downloader-token-0123456789';
const minIntervalMs = 1000;
const leaseTtlSeconds = 10;

/** Paths a page load fetches by itself (subresources); everything else was initiated by the crawler. */
function isInitiatedFetch(entry: OriginAccessLogEntry): boolean {
  return (
    !entry.path.startsWith('/static/') &&
    !entry.path.startsWith('/api/') &&
    entry.path !== '/favicon.ico'
  );
}

async function waitFor<T>(
  describeWait: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${describeWait}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('the system end to end', () => {
  let demo: DemoSite;
  let workDirectory: string;
  let scheduler: StartedServiceProcess;
  let schedulerClient: SchedulerClient;
  const downloaders: StartedServiceProcess[] = [];

  function startDownloader(
    workerId: string,
    dataDirectory: string,
  ): Promise<StartedServiceProcess> {
    return startServiceProcess(
      'downloader',
      [
        '--data-dir',
        dataDirectory,
        '--worker-id',
        workerId,
        '--lease-ttl-seconds',
        String(leaseTtlSeconds),
        '--lease-poll-interval-ms',
        '200',
        '--allow-destinations',
        demo.hosts.join(','),
      ],
      {
        DOWNLOADER_TOKEN: downloaderToken,
        SCHEDULER_URL: scheduler.url,
        SCHEDULER_TOKEN: schedulerToken,
        CONTRACT_VALIDATE_RESPONSES: '1',
      },
      60_000,
    ).then((started) => {
      downloaders.push(started);
      return started;
    });
  }

  const urlTask = (url: string): Promise<GetUrlTaskOutput> =>
    schedulerClient.getUrlTask({ url_hash: urlHash(url) });

  beforeAll(async () => {
    workDirectory = mkdtempSync(join(tmpdir(), 'e2e-'));
    demo = await startDemoSite();
    scheduler = await startServiceProcess(
      'scheduler',
      ['--data-dir', join(workDirectory, 'scheduler-data'), '--maintenance-interval-ms', '200'],
      {
        SCHEDULER_TOKEN: schedulerToken,
        DOWNLOADER_TOKEN: downloaderToken,
        CONTRACT_VALIDATE_RESPONSES: '1',
      },
    );
    schedulerClient = new SchedulerClient({ baseUrl: scheduler.url, token: schedulerToken });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(downloaders.map((downloader) => downloader.stop()));
    await scheduler?.stop();
    await demo?.stop();
    rmSync(workDirectory, { recursive: true, force: true });
  }, 60_000);

  it('passes M0: rule, seed, lease-render-report, a complete page object', async () => {
    const downloader = await startDownloader(
      'e2e-downloader-a',
      join(workDirectory, 'downloader-a'),
    );
    const lines: string[] = [];
    const outcome = await runM0({
      scheduler: { url: scheduler.url, token: schedulerToken },
      downloader: { url: downloader.url, token: downloaderToken },
      seedUrl: `${demo.baseUrls[0]}/csr`,
      extraRuleDomainList: demo.hosts.slice(1),
      minIntervalMs,
      waitSelector: null,
      renderTimeoutMs: 60_000,
      say: (line) => lines.push(line),
    });
    expect(lines.join('\n')).toContain('M0 passed');
    expect(outcome.isPassed).toBe(true);
    expect(outcome.fieldChecks.filter((check) => check.verdict !== 'ok')).toEqual([]);
    expect(outcome.fieldChecks.map((check) => check.field)).toEqual(
      expect.arrayContaining(['object_id', 'network_log', 'link_list', 'health_signal']),
    );
  }, 120_000);

  it('crawls every reachable page of the demo site exactly once', async () => {
    const settled = await waitFor(
      'every reachable page to be done',
      async () => {
        const views = await Promise.all(
          demo.reachableUrls.map(urlTask).map((view) => view.catch(() => undefined)),
        );
        return views.every((view) => view?.url_state === 'done') ? views : undefined;
      },
      150_000,
    );
    expect(settled).toHaveLength(demo.reachableUrls.length);
    for (const url of demo.reachableUrls) {
      const { hostname, pathname, search } = new URL(url);
      const pageFetches = demo.accessLog
        .list(hostname)
        .filter((entry) => entry.path === `${pathname}${search}` && entry.method === 'GET');
      expect({ url, fetchCount: pageFetches.length }).toEqual({ url, fetchCount: 1 });
    }
  }, 180_000);

  it('never follows a nofollow link nor fetches what robots.txt disallows', () => {
    const paths = demo.accessLog.list().map((entry) => entry.path);
    expect(paths.filter((path) => path.startsWith('/nofollow-only'))).toEqual([]);
    expect(paths.filter((path) => path.startsWith('/private/'))).toEqual([]);
    expect(paths).toContain('/robots.txt');
  });

  it('shows the failing XHRs of a page in its health_signal', async () => {
    const view = await urlTask(`${demo.baseUrls[1]}/csr`);
    expect(view.object_id).not.toBeNull();
    const downloader = new DownloaderClient({
      baseUrl: downloaders[0].url,
      token: downloaderToken,
    });
    const page = await downloader.getWebPageObject({ object_id: view.object_id as string });
    expect(page.rendered_html).toContain('Fourth article');
    expect(page.health_signal.xhr_error_count).toBeGreaterThanOrEqual(1);
    expect(page.health_signal.xhr_throttled_count).toBeGreaterThanOrEqual(1);
    expect(page.health_signal.xhr_denied_count).toBeGreaterThanOrEqual(1);
    expect(page.health_signal.xhr_total_count).toBe(
      page.network_log.filter((entry) => entry.type === 'xhr').length,
    );
  });

  it('kept min_interval_ms between the requests it initiated, by the origin’s own clock', () => {
    for (const host of demo.hosts) {
      const times = demo.accessLog
        .list(host)
        .filter(isInitiatedFetch)
        .map((entry) => entry.receivedAtMs);
      expect(times.length).toBeGreaterThan(3);
      const gaps = times.slice(1).map((time, index) => time - times[index]);
      const smallestGapMs = Math.min(...gaps);
      expect({ host, isSpaced: smallestGapMs >= minIntervalMs, smallestGapMs }).toMatchObject({
        host,
        isSpaced: true,
      });
    }
  });

  it('reclaims a killed downloader’s lease, lets a second one finish it, and answers the late report as stale', async () => {
    const slowUrl = `${demo.baseUrls[0]}/slow?delay_ms=5000`;
    await schedulerClient.submitSeeds({ seed_list: [{ url: slowUrl }] });
    const leased = await waitFor(
      'the slow page to be leased',
      async () => {
        const view = await urlTask(slowUrl);
        return view.url_state === 'leased' ? view : undefined;
      },
      30_000,
    );
    await waitFor(
      'the slow page request to reach the origin',
      async () =>
        demo.accessLog.list(demo.hosts[0]).some((entry) => entry.path.startsWith('/slow'))
          ? true
          : undefined,
      30_000,
    );
    const first = downloaders[0];
    first.child.kill('SIGKILL');
    await first.stop();

    const second = await startDownloader('e2e-downloader-b', join(workDirectory, 'downloader-b'));
    const finished = await waitFor(
      'the second downloader to finish the slow page',
      async () => {
        const view = await urlTask(slowUrl);
        return view.url_state === 'done' ? view : undefined;
      },
      90_000,
    ).catch(async (error: Error) => {
      // What the URL and the second downloader were doing: the difference between a slow CI
      // machine and a lease that never completes.
      const recentLines = second.logLines.slice(-20).map((line) => JSON.stringify(line));
      error.message += `\nurl task: ${JSON.stringify(await urlTask(slowUrl))}\n${recentLines.join('\n')}`;
      throw error;
    });
    expect(finished.object_id).not.toBeNull();
    const secondStore = new DownloaderClient({ baseUrl: second.url, token: downloaderToken });
    await expect(
      secondStore.getWebPageObject({ object_id: finished.object_id as string }),
    ).resolves.toMatchObject({
      url: slowUrl,
    });
    expect(
      demo.accessLog.list(demo.hosts[0]).filter((entry) => entry.path.startsWith('/slow')),
    ).toHaveLength(2);

    // The first downloader comes back and sends what its outbox kept for the reclaimed lease.
    await startDownloader('e2e-downloader-a', join(workDirectory, 'downloader-a'));
    await waitFor(
      'the late report to be answered as stale',
      async () => {
        const metrics = await (await fetch(`${scheduler.url}/metrics`)).text();
        const staleCount = Number(/^scheduler_stale_report_total (\d+)/m.exec(metrics)?.[1] ?? 0);
        return staleCount >= 1 ? staleCount : undefined;
      },
      30_000,
    );
    const after = await urlTask(slowUrl);
    expect(after).toMatchObject({ url_state: 'done', object_id: finished.object_id });
    expect(leased.lease_id).not.toBeNull();
    expect(
      demo.accessLog.list(demo.hosts[0]).filter((entry) => entry.path.startsWith('/slow')),
    ).toHaveLength(2);
  }, 180_000);
});
