import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DownloaderClient } from '../../generated/downloader';
import { SamplerClient } from '../../generated/sampler';
import { SchedulerClient, type GetUrlTaskOutput } from '../../generated/scheduler';
import { ContractHttpError } from '../../services/common/contract-runtime/client-errors';
import {
  startServiceProcess,
  type StartedServiceProcess,
} from '../../services/common/testing/service-process';
import { urlHash } from '../../services/common/url';
import { DEFAULT_DEMO_HOSTS, startDemoSite, type DemoSite } from '../demo-site/demo-site';
import {
  startSamplingCorpus,
  type SamplingCorpus,
} from '../demo-site/sampling-corpus/sampling-corpus';
import type { OriginAccessLogEntry } from '../demo-site/origin-access-log';
import { runM0 } from '../m0/m0-steps';
import { waitFor } from './e2e-support';
import { removeWorkDirectory } from '../../services/common/testing/work-directory';

/*
 * The whole system end to end, as M0 (CONTRACT.md §六) and beyond: real processes (scheduler,
 * downloaders, then the sampler), a real Chromium, real LMDB, the bundled demo site on loopback as
 * the origin — and the origin's own access log as the judge. M0 runs with hand-written rules and no
 * sampler; then the sampler takes over a client-rendered demo host nobody wrote a rule for, and an
 * undecided site (a login wall from the sampling corpus) meets an external consumer.
 */

const schedulerToken = 'e2e-scheduler-token-0123456789';
const downloaderToken = 'e2e-downloader-token-0123456789';
const samplerToken = 'e2e-sampler-token-0123456789';
/** A demo host without a hand-written rule: its pages build their article in the browser. */
const SAMPLED_HOST = '127.0.0.5';
/** An undecided site for the consumer: the sampler cannot get past its login wall. */
const GATED_SITE = 'login-redirect';
/** The re-sampling backoff of undecided domains in this run: about 9 s instead of 30 days. */
const UNDECIDED_BACKOFF_DAYS = '0.0001';
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

describe('the system end to end', () => {
  let demo: DemoSite;
  let corpus: SamplingCorpus;
  let workDirectory: string;
  let scheduler: StartedServiceProcess;
  let schedulerClient: SchedulerClient;
  let sampler: StartedServiceProcess | undefined;
  const downloaders: StartedServiceProcess[] = [];
  const handRuledHosts = DEFAULT_DEMO_HOSTS;
  const sampledBaseUrl = () => demo.baseUrls[demo.hosts.indexOf(SAMPLED_HOST)];

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
        [...demo.hosts, ...corpus.domains.map((domain) => domain.host)].join(','),
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
    demo = await startDemoSite({
      hosts: [...handRuledHosts, SAMPLED_HOST],
      clientRenderedHosts: [SAMPLED_HOST],
    });
    corpus = await startSamplingCorpus({ names: [GATED_SITE] });
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
    await sampler?.stop();
    await Promise.all(downloaders.map((downloader) => downloader.stop()));
    await scheduler?.stop();
    await demo?.stop();
    await corpus?.stop();
    await removeWorkDirectory(workDirectory);
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
      extraRuleDomainList: handRuledHosts.slice(1),
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

  it('lets the sampler take over: a host without a rule is found through links, sampled, ruled and crawled', async () => {
    // M0 ran without the sampler; the crawl has meanwhile reached the sampled host through links.
    await waitFor(
      'the scheduler to list the client-rendered host as a domain candidate',
      async () => {
        const candidates = await schedulerClient.listDomainCandidates({ limit: 100 });
        return candidates.domain_list.some((candidate) => candidate.domain === SAMPLED_HOST)
          ? true
          : undefined;
      },
      120_000,
    );
    expect(demo.accessLog.list(SAMPLED_HOST)).toEqual([]);
    sampler = await startServiceProcess(
      'sampler',
      [
        '--data-dir',
        join(workDirectory, 'sampler'),
        '--candidate-poll-interval-ms',
        '500',
        '--queue-tick-interval-ms',
        '200',
        '--claim-sweep-interval-ms',
        '500',
        '--undecided-backoff-days',
        UNDECIDED_BACKOFF_DAYS,
      ],
      {
        SAMPLER_TOKEN: samplerToken,
        SCHEDULER_URL: scheduler.url,
        SCHEDULER_TOKEN: schedulerToken,
        DOWNLOADER_URL: downloaders[0].url,
        DOWNLOADER_TOKEN: downloaderToken,
        CONTRACT_VALIDATE_RESPONSES: '1',
      },
      60_000,
    );
    const samplerClient = new SamplerClient({ baseUrl: sampler.url, token: samplerToken });
    const ruled = await waitFor(
      'the sampler to judge the client-rendered host',
      async () => {
        const queue = await samplerClient.getSamplingQueue({});
        return queue.task_list.find(
          (task) => task.domain === SAMPLED_HOST && task.verdict !== null,
        );
      },
      120_000,
    );
    expect(ruled.verdict).toBe('csr');
    // Every sampling request went through the downloader: the origin saw its crawler User-Agent.
    const sampling = demo.accessLog.list(SAMPLED_HOST);
    expect(sampling.map((entry) => entry.path)).toContain('/robots.txt');
    expect(sampling.every((entry) => entry.userAgent.includes('RenderCrawler'))).toBe(true);
    await waitFor(
      'the sampled host’s home page to be crawled under the sampler’s rule',
      async () => ((await urlTask(`${sampledBaseUrl()}/`)).url_state === 'done' ? true : undefined),
      120_000,
    );
  }, 300_000);

  it('crawls every reachable page of the demo site, each hand-ruled page exactly once', async () => {
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
    expect(
      demo.reachableUrls.filter((url) => url.startsWith(sampledBaseUrl())).length,
    ).toBeGreaterThan(5);
    for (const url of demo.reachableUrls) {
      const { hostname, pathname, search } = new URL(url);
      // The sampled host also answered the sampler's plain and rendered samples of some pages.
      if (hostname === SAMPLED_HOST) continue;
      const pageFetches = demo.accessLog
        .list(hostname)
        .filter((entry) => entry.path === `${pathname}${search}` && entry.method === 'GET');
      expect({ url, fetchCount: pageFetches.length }).toEqual({ url, fetchCount: 1 });
    }
  }, 180_000);

  it('exports an undecided site and sends it no request while a consumer holds it', async () => {
    const gated = corpus.domains[0];
    const admin = new SamplerClient({ baseUrl: sampler!.url, token: samplerToken });
    await schedulerClient.submitSeeds({ seed_list: [{ url: `${gated.baseUrl}/` }] });
    // The queue shows the verdict as soon as the rule is written; the sampling is over (the site
    // marked undecided, so exported) only once the task is no longer in progress.
    await waitFor(
      'the sampler to judge the gated site undecided and finish its sampling',
      async () => {
        const queue = await admin.getSamplingQueue({});
        const task = queue.task_list.find((row) => row.domain === gated.host);
        return task?.verdict === 'unknown' && !task.is_in_progress ? task : undefined;
      },
      120_000,
    );
    // The verdict reaches the scheduler through the sampler's rule outbox, a moment after the
    // sampler's own queue shows it.
    await waitFor(
      "the scheduler to drop the undecided site's URL",
      async () => ((await urlTask(`${gated.baseUrl}/`)).url_state === 'dropped' ? true : undefined),
      30_000,
    );

    // A consumer token through the real operator endpoint; it opens the three exports only.
    const issued = await admin.issueConsumerToken({ consumer_id: 'e2e-consumer' });
    const consumer = new SamplerClient({
      baseUrl: sampler!.url,
      token: issued.consumer_token,
      maximumAttemptCount: 1,
    });
    const refusal = (call: Promise<unknown>) =>
      call.then(
        () => undefined,
        (error: ContractHttpError) => `${error.status} ${error.errorCode}`,
      );
    expect(await refusal(consumer.getSamplingQueue({}))).toBe('403 wrong_token_kind');
    const onScheduler = new SchedulerClient({
      baseUrl: scheduler.url,
      token: issued.consumer_token,
      maximumAttemptCount: 1,
    });
    expect(await refusal(onScheduler.getFrontierSummary({}))).toBe('401 invalid_token');
    const onDownloader = new DownloaderClient({
      baseUrl: downloaders[0].url,
      token: issued.consumer_token,
      maximumAttemptCount: 1,
    });
    expect(await refusal(onDownloader.getConcurrencyConfig())).toBe('401 invalid_token');
    const exported = await consumer.listExportedDomains({});
    expect(exported.domain_list).toEqual([
      expect.objectContaining({ domain: gated.host, min_interval_ms: expect.any(Number) }),
    ]);
    expect(exported.domain_list[0]).toHaveProperty('robots_txt');

    // Asked for 30 days, given 7 — and told why.
    const longClaim = await consumer.claimDomains({
      domain_count: 10,
      claim_ttl_seconds: 2_592_000,
    });
    expect(longClaim).toMatchObject({
      claim_ttl_seconds: 604_800,
      is_claim_ttl_truncated: true,
      domain_list: [expect.objectContaining({ domain: gated.host })],
    });
    expect(longClaim.claim_ttl_note).toContain('truncated to 604800');
    // The consumer cannot decide it either; the same batch sent twice changes nothing the second time.
    const batch = {
      claim_id: longClaim.claim_id,
      hint_list: [
        {
          domain: gated.host,
          verdict: 'unknown' as const,
          undetermined_reason: 'consumer_capability_exceeded' as const,
          confidence_score: 0.4,
        },
      ],
    };
    expect(await consumer.submitVerdictHints(batch)).toEqual({
      accepted_count: 1,
      rejected_count: 0,
      duplicate_count: 0,
    });
    expect(await consumer.submitVerdictHints(batch)).toEqual({
      accepted_count: 0,
      rejected_count: 0,
      duplicate_count: 1,
    });

    // A short claim: the domain falls due for re-sampling while held, yet the origin hears nothing
    // until the claim lapses by itself — then the sampler comes back.
    await waitFor(
      'the gated site to be offered again',
      async () =>
        (await consumer.listExportedDomains({})).domain_list.length === 1 ? true : undefined,
      60_000,
    );
    const shortClaim = await consumer.claimDomains({ domain_count: 10, claim_ttl_seconds: 60 });
    const claimedAtMs = Date.now();
    const expiresAtMs = Date.parse(shortClaim.expires_at);
    expect(shortClaim.domain_list.map((row) => row.domain)).toEqual([gated.host]);
    await waitFor(
      'the claim to lapse and the sampler to sample the site again',
      async () =>
        corpus.accessLog.list(gated.host).some((entry) => entry.receivedAtMs >= expiresAtMs)
          ? true
          : undefined,
      150_000,
    );
    const whileHeld = corpus.accessLog
      .list(gated.host)
      .filter((entry) => entry.receivedAtMs >= claimedAtMs && entry.receivedAtMs < expiresAtMs);
    expect(whileHeld).toEqual([]);
    const claims = await admin.listDomainClaims({});
    expect(claims.claim_list.find((row) => row.claim_id === shortClaim.claim_id)?.claim_state).toBe(
      'expired',
    );
    expect(claims.recent_hint_list).toEqual([
      expect.objectContaining({ domain: gated.host, hint_decision: 'returned_to_backoff' }),
    ]);
    // The rest of the run is about downloaders; the sampler's 9-second backoff would only add load.
    await sampler!.stop();
    sampler = undefined;
  }, 400_000);

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
    // Kill the first downloader while its request for the page is open at the origin (the
    // downloader's own in-flight count rises before Chromium has sent the request).
    const first = downloaders[0];
    await waitFor(
      'the slow page request to reach the origin',
      async () =>
        demo.accessLog.listOpen(demo.hosts[0]).some((path) => path.startsWith('/slow'))
          ? true
          : undefined,
      30_000,
    );
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
