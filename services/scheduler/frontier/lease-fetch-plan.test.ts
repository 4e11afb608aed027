import { Packr } from 'msgpackr';
import type { ApiEndpoint } from '../../common/api-endpoint';
import type { DocumentCodec } from '../../common/storage/document-codec';
import { openServiceKeyspace } from '../../common/storage/service-keyspace';
import {
  doneResult,
  failedResult,
  healthySignal,
  link,
  ruleFor,
} from '../testing/contract-fixtures';
import { seedUrls } from '../testing/lease-helpers';
import {
  leaseFrom,
  openTestFrontier,
  testFrontierSettings,
  type TestFrontier,
} from '../testing/test-frontier';
import { parseFrontierUrl } from './frontier-url';
import { timeTextOf } from './time-text';
import type { LeaseResponse, LeaseTask, ReportResult } from './wire-types';

/*
 * v2's fetch plan without HTTP, on the injected clock: an api domain's URL is rendered first (never
 * rendered), then fetched through its endpoint, then rendered again once its last render is as old
 * as the link-render interval; an api result leaves links, health and the last render alone.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const APP_ENDPOINT: ApiEndpoint = {
  page_url_pattern: '^https://app\\.example(?<path>/[^?#]*)$',
  endpoint_url_template: 'https://app.example/api/page?path={path}',
  content_pointer: '',
};

/** A signal that pauses a domain at once under the thresholds of these tests, if it is counted. */
const FAILING_SIGNAL = healthySignal({ xhr_total_count: 10, xhr_error_count: 10 });

function urlHashOf(url: string): string {
  const parsed = parseFrontierUrl(url);
  if (typeof parsed === 'string') throw new Error(`${url}: ${parsed}`);
  return parsed.urlHash;
}

describe('lease fetch plan (render_strategy on lease tasks)', () => {
  let frontier: TestFrontier;

  afterEach(() => frontier.dispose());

  async function openWithRules(apiLinkRenderIntervalSeconds: number): Promise<void> {
    const defaults = testFrontierSettings();
    frontier = await openTestFrontier({
      settings: {
        domainInFlightCap: 50,
        apiLinkRenderIntervalSeconds,
        // One result decides: a counted failing signal pauses its domain on the spot.
        health: { ...defaults.health, minResultCount: 1, minXhrCount: 1 },
      },
    });
    await frontier.parts.ruleIntake.submit([
      ruleFor('app.example', {
        render_strategy: 'api',
        api_endpoint: APP_ENDPOINT,
        revisit_interval_seconds: 3600,
      }),
      ruleFor('news.example', { revisit_interval_seconds: 3600 }),
    ]);
    await frontier.parts.seedIntake.submit(seedUrls(['app.example', 'news.example'], 1));
  }

  /** A lease holding both seeds (other URLs it holds are left out of the report: re-queued). */
  async function leaseBothSeeds(): Promise<{
    lease: LeaseResponse;
    app: LeaseTask;
    news: LeaseTask;
  }> {
    const lease = await leaseFrom(frontier.parts);
    const app = lease.task_list.find((task) => task.url === 'https://app.example/page-0');
    const news = lease.task_list.find((task) => task.url === 'https://news.example/page-0');
    if (app === undefined || news === undefined) {
      throw new Error(`expected both seeds, got ${JSON.stringify(lease.task_list)}`);
    }
    return { lease, app, news };
  }

  async function report(lease: LeaseResponse, results: ReportResult[]): Promise<void> {
    const answer = await frontier.parts.reportApplier.report({
      lease_id: lease.lease_id,
      worker_id: lease.worker_id,
      result_list: results,
    });
    expect(answer).toMatchObject({ is_stale_lease: false, accepted_count: results.length });
  }

  async function storedTask(url: string) {
    const [task] = await frontier.parts.store.readUrlTasks([urlHashOf(url)]);
    return task;
  }

  it('renders an api URL first, then uses its endpoint, then renders it again after the interval', async () => {
    await openWithRules(DAY_MS / 1000);
    const { clock } = frontier;
    const firstAt = timeTextOf(clock.nowMs());

    // Never rendered: leased as render, the mapping sent along. A render domain: render, null.
    const first = await leaseBothSeeds();
    expect(first.app).toMatchObject({ render_strategy: 'render', api_endpoint: APP_ENDPOINT });
    expect(first.news).toMatchObject({ render_strategy: 'render', api_endpoint: null });
    const v1Result = doneResult(first.news, { fetched_at: firstAt });
    expect(v1Result).not.toHaveProperty('render_strategy'); // a v1 downloader's result
    await report(first.lease, [
      doneResult(first.app, {
        render_strategy: 'render',
        fetched_at: firstAt,
        link_list: [link('https://app.example/seen-by-render')],
      }),
      v1Result,
    ]);
    expect((await storedTask(first.app.url))?.last_rendered_at).toBe(firstAt);
    expect((await storedTask(first.news.url))?.last_rendered_at).toBe(firstAt); // absent = render
    expect((await storedTask('https://app.example/seen-by-render'))?.url_state).toBe('queued');

    // Due again an hour later, rendered an hour ago: through the endpoint.
    clock.advance(HOUR_MS);
    const second = await leaseBothSeeds();
    expect(second.app).toMatchObject({ render_strategy: 'api', api_endpoint: APP_ENDPOINT });
    expect(second.news).toMatchObject({ render_strategy: 'render', api_endpoint: null });
    const secondAt = timeTextOf(clock.nowMs());
    await report(second.lease, [
      doneResult(second.app, {
        render_strategy: 'api',
        object_id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        fetched_at: secondAt,
        // Off contract (an api result carries none), to see that nothing of it is taken.
        link_list: [link('https://app.example/seen-by-api')],
        health_signal: FAILING_SIGNAL,
      }),
      doneResult(second.news, { fetched_at: secondAt }),
    ]);
    const afterApi = await storedTask(second.app.url);
    expect(afterApi).toMatchObject({
      url_state: 'done',
      object_id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      fetched_at: secondAt,
      last_rendered_at: firstAt, // untouched by the api fetch
    });
    expect(await storedTask('https://app.example/seen-by-api')).toBeUndefined();
    expect(frontier.parts.health.stateOf('app.example').state).toBe('healthy');

    // Still within the interval: api again; past it (a day after the render): rendered.
    clock.advance(HOUR_MS);
    expect((await leaseBothSeeds()).app.render_strategy).toBe('api');
    clock.advance(DAY_MS - 2 * HOUR_MS);
    const third = await leaseBothSeeds(); // the unreported lease before it has expired by now
    expect(third.app).toMatchObject({ render_strategy: 'render', api_endpoint: APP_ENDPOINT });
  });

  it('counts the health signal of a rendered result (the control for the api case above)', async () => {
    await openWithRules(DAY_MS / 1000);
    const first = await leaseBothSeeds();
    await report(first.lease, [
      doneResult(first.app, { render_strategy: 'render', health_signal: FAILING_SIGNAL }),
      doneResult(first.news, { health_signal: FAILING_SIGNAL }),
    ]);
    expect(frontier.parts.health.stateOf('app.example').state).toBe('paused');
    expect(frontier.parts.health.stateOf('news.example').state).toBe('paused');
  });

  it('renders every time with an interval of 0', async () => {
    await openWithRules(0);
    const { clock } = frontier;
    const first = await leaseBothSeeds();
    await report(first.lease, [
      doneResult(first.app, { render_strategy: 'render', fetched_at: timeTextOf(clock.nowMs()) }),
      doneResult(first.news),
    ]);
    clock.advance(HOUR_MS);
    const second = await leaseBothSeeds();
    expect(second.app).toMatchObject({ render_strategy: 'render', api_endpoint: APP_ENDPOINT });
  });

  it('does not count a failed render as the last render: the retry renders again', async () => {
    await openWithRules(DAY_MS / 1000);
    const { clock } = frontier;
    const first = await leaseBothSeeds();
    await report(first.lease, [
      { ...failedResult(first.app, 'navigation_timeout'), render_strategy: 'render' },
      doneResult(first.news),
    ]);
    expect(await storedTask(first.app.url)).toMatchObject({
      url_state: 'queued',
      last_rendered_at: null,
    });
    clock.advance(HOUR_MS); // past the retry backoff
    const retry = await leaseFrom(frontier.parts);
    expect(retry.task_list.find((task) => task.url === first.app.url)).toMatchObject({
      render_strategy: 'render',
    });
  });

  it('reads a rule stored before v2 (no render_strategy, no api_endpoint) as render', async () => {
    // The replica's row as the v1 scheduler wrote it: its ten values in declaration order (the
    // record codec's format), without the two fields v2 appended.
    const v1Row = new Packr({ useRecords: false }).pack([
      'old.example',
      'csr',
      null,
      0,
      '#content',
      10,
      null,
      '2026-08-15T06:00:00Z',
      null,
      '2026-08-15T06:00:00Z',
    ]);
    const rawBytes: DocumentCodec<Buffer> = {
      encode: (bytes) => bytes,
      encodeForComparison: (bytes) => bytes,
      decode: (bytes, start = 0) => bytes.subarray(start),
    };
    frontier = await openTestFrontier({
      settings: { domainInFlightCap: 50 },
      prepareStorage: async (backend) => {
        const rules = openServiceKeyspace('scheduler', backend).replicaTable(
          'domain_rule_replica',
          rawBytes,
        );
        await rules.applyReplica([{ primaryKey: 'old.example', value: v1Row }]);
      },
    });
    expect(await frontier.parts.tables.rules.get('old.example')).toMatchObject({
      verdict: 'csr',
      render_strategy: null,
      api_endpoint: null,
    });
    expect(frontier.parts.rules.get('old.example')).toMatchObject({
      renderStrategy: 'render',
      apiEndpoint: null,
    });
    await frontier.parts.seedIntake.submit(seedUrls(['old.example'], 1));
    const lease = await leaseFrom(frontier.parts);
    expect(lease.task_list).toEqual([
      expect.objectContaining({ render_strategy: 'render', api_endpoint: null }),
    ]);
  });

  it('keeps an api rule across a restart (the replica stores render_strategy and api_endpoint)', async () => {
    await openWithRules(DAY_MS / 1000);
    frontier = await frontier.reopen();
    expect(frontier.parts.rules.get('app.example')).toMatchObject({
      renderStrategy: 'api',
      apiEndpoint: APP_ENDPOINT,
    });
    expect(await frontier.parts.tables.rules.get('app.example')).toMatchObject({
      render_strategy: 'api',
      api_endpoint: APP_ENDPOINT,
    });
  });
});
