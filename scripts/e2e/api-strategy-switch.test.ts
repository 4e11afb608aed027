import { freeLoopbackPort } from '../../services/common/testing/free-loopback-port';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SamplerClient } from '../../generated/sampler';
import { SchedulerClient } from '../../generated/scheduler';
import {
  startServiceProcess,
  stopLastStartedFirst,
  type StartedServiceProcess,
} from '../../services/common/testing/service-process';
import { urlHash } from '../../services/common/url';
import { startDemoSite, type DemoSite } from '../demo-site/demo-site';
import { metricSum, waitFor } from './e2e-support';
import { removeWorkDirectory } from '../../services/common/testing/work-directory';

/*
 * Contract v2 end to end, all three parties as real processes: the sampler judges an API-backed
 * client-rendered demo host as needing rendering (csr or partial); the downloader, rendering its
 * pages, notices the JSON endpoint that carries their content and hints it to the sampler; the sampler verifies the hint through
 * the downloader and sends a `render_strategy = api` rule; at the next re-visit the scheduler
 * leases the host's pages as api tasks and the downloader fetches their JSON without opening them —
 * the origin's access log is the judge. (That an api domain's URL is rendered again once its last
 * render is older than the link-render interval is covered with an injected clock in
 * services/scheduler/frontier/lease-fetch-plan.test.ts.)
 */

const schedulerToken = 'switch-scheduler-token-0123456789';
const downloaderToken = 'switch-downloader-token-0123456789';
const samplerToken = 'switch-sampler-token-0123456789';
const API_BACKED_HOST = '127.0.0.8';
/** The shortest re-visit interval the scheduler accepts. */
const REVISIT_INTERVAL_SECONDS = 60;

describe('contract v2: a domain switches from render to api', () => {
  let demo: DemoSite;
  let workDirectory: string;
  const started: StartedServiceProcess[] = [];

  beforeAll(async () => {
    workDirectory = mkdtempSync(join(tmpdir(), 'api-switch-'));
    demo = await startDemoSite({
      hosts: [API_BACKED_HOST],
      clientRenderedHosts: [API_BACKED_HOST],
      crawlDelaySeconds: 0,
      contentXhrDelayMs: 0,
    });
  });

  afterAll(async () => {
    await stopLastStartedFirst(started);
    await demo?.stop();
    if (workDirectory) await removeWorkDirectory(workDirectory);
  });

  it('crawls the API-backed host through its JSON endpoint once the sampler verified the hint', async () => {
    const tokens = {
      SCHEDULER_TOKEN: schedulerToken,
      DOWNLOADER_TOKEN: downloaderToken,
      SAMPLER_TOKEN: samplerToken,
    };
    const scheduler = await startServiceProcess(
      'scheduler',
      [
        ...['--data-dir', join(workDirectory, 'scheduler'), '--maintenance-interval-ms', '200'],
        ...['--revisit-interval-seconds', String(REVISIT_INTERVAL_SECONDS)],
        ...['--api-link-render-interval-seconds', '3600'],
      ],
      tokens,
    );
    started.push(scheduler);
    // The sampler's URL is known before it starts: hints sent earlier are retried, then dropped.
    const samplerPort = await freeLoopbackPort();
    const samplerUrl = `http://127.0.0.1:${samplerPort}`;
    const downloader = await startServiceProcess(
      'downloader',
      [
        ...['--data-dir', join(workDirectory, 'downloader'), '--worker-id', 'switch-downloader'],
        ...['--allow-destinations', API_BACKED_HOST, '--lease-ttl-seconds', '30'],
      ],
      { ...tokens, SCHEDULER_URL: scheduler.url, SAMPLER_URL: samplerUrl },
      60_000,
    );
    started.push(downloader);
    const sampler = await startServiceProcess(
      'sampler',
      [
        ...['--data-dir', join(workDirectory, 'sampler'), '--candidate-poll-interval-ms', '500'],
        ...['--queue-tick-interval-ms', '200', '--api-hint-check-interval-ms', '500'],
        ...['--port', String(samplerPort)],
      ],
      {
        ...tokens,
        SCHEDULER_URL: scheduler.url,
        DOWNLOADER_URL: downloader.url,
      },
      60_000,
    );
    started.push(sampler);
    expect(sampler.url).toBe(samplerUrl);

    const schedulerClient = new SchedulerClient({ baseUrl: scheduler.url, token: schedulerToken });
    const homeUrl = `${demo.baseUrls[0]}/`;
    await schedulerClient.submitSeeds({ seed_list: [{ url: homeUrl }] });

    // 1. Sampled (csr or partial), crawled by rendering: the downloader hints the endpoint while rendering.
    const samplerClient = new SamplerClient({ baseUrl: sampler.url, token: samplerToken });
    await waitFor(
      'the sampler to judge the host csr or partial (it needs rendering)',
      async () =>
        (await samplerClient.getSamplingQueue({})).task_list.find(
          (task) =>
            task.domain === API_BACKED_HOST &&
            (task.verdict === 'csr' || task.verdict === 'partial'),
        ),
      120_000,
    ).catch(async (error: Error) => {
      error.message += `\nsampling queue: ${JSON.stringify(await samplerClient.getSamplingQueue({}))}\n${sampler.logLines
        .slice(-15)
        .map((line) => JSON.stringify(line))
        .join('\n')}`;
      throw error;
    });
    await waitFor(
      'the sampler to verify a hint and send the api rule',
      async () =>
        (await metricSum(sampler.url, 'sampler_api_endpoint_verification_total', {
          outcome: 'verified',
        })) > 0
          ? true
          : undefined,
      120_000,
    );
    expect(
      await metricSum(downloader.url, 'downloader_api_endpoint_hint_total', {}),
    ).toBeGreaterThan(0);

    // 2. At the next re-visit the pages come as api tasks: their JSON, no page load.
    const apiTaskCount = () =>
      metricSum(downloader.url, 'downloader_lease_task_strategy_total', {
        leased_strategy: 'api',
        render_strategy: 'api',
      });
    await waitFor(
      'the first api task',
      async () => ((await apiTaskCount()) > 0 ? true : undefined),
      2 * REVISIT_INTERVAL_SECONDS * 1000 + 60_000,
    );
    const switchedAtMs = Date.now();
    const firstCount = await apiTaskCount();
    await waitFor(
      'more api tasks',
      async () => ((await apiTaskCount()) >= firstCount + 3 ? true : undefined),
      2 * REVISIT_INTERVAL_SECONDS * 1000,
    );
    const home = await schedulerClient.getUrlTask({ url_hash: urlHash(homeUrl) });
    expect(home.url_state).toBe('done');
    const afterSwitch = demo.accessLog
      .list(API_BACKED_HOST)
      .filter((entry) => entry.receivedAtMs > switchedAtMs && entry.status === 200);
    const endpointFetches = afterSwitch.filter((entry) => entry.path.startsWith('/api/page?path='));
    const pageLoads = afterSwitch.filter((entry) => entry.path.startsWith('/static/article.js'));
    expect(endpointFetches.length).toBeGreaterThanOrEqual(3);
    expect({ pageLoadsAfterSwitch: pageLoads.length }).toEqual({ pageLoadsAfterSwitch: 0 });
  }, 420_000);
});
