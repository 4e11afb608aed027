import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchedulerClient } from '../../generated/scheduler';
import {
  startServiceProcess,
  stopLastStartedFirst,
  type StartedServiceProcess,
} from '../../services/common/testing/service-process';
import { urlHash } from '../../services/common/url';
import { startDemoSite, type DemoSite } from '../demo-site/demo-site';
import {
  previousContractTree,
  type PreviousContractTree,
} from './previous-contract/previous-contract-tree';
import { metricSum, waitFor } from './e2e-support';
import { removeWorkDirectory } from '../../services/common/testing/work-directory';

/*
 * Compatibility proven at run time (CONTRACT.md §七): the previous contract's downloader — built
 * from the commit its contract version was frozen from — crawls with this contract's scheduler,
 * and this contract's downloader crawls with the previous scheduler. Receivers tolerate what they
 * do not know and count it (`…_contract_unknown_field_total`): the old downloader sees the new
 * task fields in lease answers, the old scheduler sees the new result field in reports.
 */

const repositoryRoot = join(__dirname, '..', '..');
const schedulerToken = 'compat-scheduler-token-0123456789';
const downloaderToken = 'compat-downloader-token-0123456789';
/** A server-rendered demo host and an API-backed client-rendered one (its pages fill from JSON). */
const STATIC_HOST = '127.0.0.6';
const API_BACKED_HOST = '127.0.0.7';

describe('contract compatibility across versions, at run time', () => {
  let previous: PreviousContractTree;
  let demo: DemoSite;
  let workDirectory: string;
  const started: StartedServiceProcess[] = [];

  beforeAll(async () => {
    previous = previousContractTree(repositoryRoot);
    workDirectory = mkdtempSync(join(tmpdir(), 'compat-'));
    demo = await startDemoSite({
      hosts: [STATIC_HOST, API_BACKED_HOST],
      clientRenderedHosts: [API_BACKED_HOST],
      crawlDelaySeconds: 0,
      contentXhrDelayMs: 0,
    });
  }, 120_000);

  afterAll(async () => {
    await stopLastStartedFirst(started);
    await demo?.stop();
    if (workDirectory) await removeWorkDirectory(workDirectory);
  });

  async function start(
    service: 'scheduler' | 'downloader',
    name: string,
    sourceRoot: string | undefined,
  ): Promise<StartedServiceProcess> {
    const dataDirectory = join(workDirectory, name);
    const argumentList =
      service === 'scheduler'
        ? ['--data-dir', dataDirectory, '--maintenance-interval-ms', '200']
        : [
            '--data-dir',
            dataDirectory,
            '--worker-id',
            name,
            '--lease-ttl-seconds',
            '30',
            '--allow-destinations',
            demo.hosts.join(','),
          ];
    const environment: NodeJS.ProcessEnv = {
      SCHEDULER_TOKEN: schedulerToken,
      DOWNLOADER_TOKEN: downloaderToken,
    };
    if (service === 'downloader') environment.SCHEDULER_URL = started.at(-1)?.url;
    const process = await startServiceProcess(
      service,
      argumentList,
      environment,
      60_000,
      [],
      sourceRoot,
    );
    started.push(process);
    return process;
  }

  /** Rules for both hosts (the API-backed one as the v2 sampler writes it), seeds, and the crawl. */
  async function crawlBothHosts(scheduler: StartedServiceProcess, isV2Rule: boolean) {
    const client = new SchedulerClient({ baseUrl: scheduler.url, token: schedulerToken });
    const apiBackedBaseUrl = demo.baseUrls[1];
    const escapedOrigin = apiBackedBaseUrl.replace(/[.]/g, '\\.');
    const verifiedAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const rule = (domain: string) => ({
      domain,
      verdict: 'csr' as const,
      undetermined_reason: null,
      min_interval_ms: 100,
      wait_selector: null,
      priority_rank: 0,
      robots_txt: null,
      verified_at: verifiedAt,
    });
    await client.submitRules({
      rule_list: [
        rule(STATIC_HOST),
        isV2Rule
          ? {
              ...rule(API_BACKED_HOST),
              render_strategy: 'api' as const,
              api_endpoint: {
                page_url_pattern: `^${escapedOrigin}(?<path>/[^?#]*)$`,
                endpoint_url_template: `${apiBackedBaseUrl}/api/page?path={path}`,
                content_pointer: '',
              },
            }
          : rule(API_BACKED_HOST),
      ],
    });
    await client.submitSeeds({
      seed_list: demo.baseUrls.map((baseUrl) => ({ url: `${baseUrl}/` })),
    });
    await waitFor(
      'every reachable page of both hosts to be done',
      async () => {
        const views = await Promise.all(
          demo.reachableUrls.map((url) =>
            client.getUrlTask({ url_hash: urlHash(url) }).catch(() => undefined),
          ),
        );
        return views.every((view) => view?.url_state === 'done') ? true : undefined;
      },
      120_000,
    );
    expect(
      demo.reachableUrls.filter((url) => url.startsWith(apiBackedBaseUrl)).length,
    ).toBeGreaterThan(3);
  }

  it('the previous contract’s downloader crawls with this scheduler, and counts the task fields it does not know', async () => {
    const scheduler = await start('scheduler', 'scheduler-current', undefined);
    const oldDownloader = await start('downloader', 'downloader-previous', previous.directory);
    await crawlBothHosts(scheduler, true);
    // The old downloader rendered the API-backed host's pages (it knows no other way) …
    const renderedPaths = demo.accessLog.list(API_BACKED_HOST).map((entry) => entry.path);
    expect(renderedPaths).toContain('/static/article.js');
    // … and saw, tolerated and counted the fields the new scheduler sends.
    expect(
      await metricSum(oldDownloader.url, 'downloader_contract_unknown_field_total', {
        operation: 'scheduler.leaseTasks',
        location: 'answer',
        field: 'task_list[].render_strategy',
      }),
    ).toBeGreaterThan(0);
    expect(
      await metricSum(oldDownloader.url, 'downloader_contract_unknown_field_total', {
        field: 'task_list[].api_endpoint',
      }),
    ).toBeGreaterThan(0);
    await stopLastStartedFirst(started);
  }, 240_000);

  it('this downloader crawls with the previous contract’s scheduler, which counts the result field it does not know', async () => {
    demo.accessLog.clear();
    const oldScheduler = await start('scheduler', 'scheduler-previous', previous.directory);
    await start('downloader', 'downloader-current', undefined);
    await crawlBothHosts(oldScheduler, false);
    expect(
      await metricSum(oldScheduler.url, 'scheduler_contract_unknown_field_total', {
        operation: 'reportLease',
        location: 'body',
        field: 'result_list[].render_strategy',
      }),
    ).toBeGreaterThan(0);
  }, 240_000);
});
