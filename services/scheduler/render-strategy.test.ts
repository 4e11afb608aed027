import type { ContractHttpError } from '../common/contract-runtime/client-errors';
import type { ApiEndpoint } from '../common/api-endpoint';
import { parseFrontierUrl } from './frontier/frontier-url';
import { timeTextOf } from './frontier/time-text';
import type { LeaseResponse, LeaseTask, ReportResult } from './frontier/wire-types';
import {
  doneResult,
  healthySignal,
  link,
  ruleFor,
  type DomainRuleFields,
} from './testing/contract-fixtures';
import { ManualClock } from './testing/manual-clock';
import { startTestScheduler, type TestScheduler } from './testing/scheduler-test-harness';

/*
 * Contract v2 on the scheduler, through HTTP: POST /v1/rules takes render_strategy + api_endpoint
 * (and refuses what the contract forbids), GET /v1/lease says how each URL is to be fetched, and
 * POST /v1/report applies an api result without its links or health counts.
 */

const HOUR_MS = 3_600_000;
const DAY_SECONDS = 86_400;

const APP_ENDPOINT: ApiEndpoint = {
  page_url_pattern: '^https://app\\.example(?<path>/[^?#]*)$',
  endpoint_url_template: 'https://app.example/api/page?path={path}',
  content_pointer: '',
};

const APP_SEED = 'https://app.example/articles/1';

describe('render_strategy and api_endpoint (contract v2)', () => {
  let clock: ManualClock;
  let scheduler: TestScheduler;

  beforeEach(async () => {
    clock = new ManualClock();
    scheduler = await startTestScheduler({
      clock,
      flags: [
        '--domain-in-flight-cap',
        '100',
        '--api-link-render-interval-seconds',
        String(DAY_SECONDS),
        // One result decides: a counted failing signal pauses the domain at once.
        '--health-min-result-count',
        '1',
        '--health-min-xhr-count',
        '1',
      ],
    });
  });
  afterEach(() => scheduler.stop());

  describe('POST /v1/rules', () => {
    const cases: Array<[string, Partial<DomainRuleFields>, RegExp]> = [
      [
        'api with api_endpoint null',
        { render_strategy: 'api', api_endpoint: null },
        // The schema's render_strategy ↔ api_endpoint pairing refuses it before the intake does.
        /rule_list\[1\]\.api_endpoint: must be object/,
      ],
      [
        'api without api_endpoint',
        { render_strategy: 'api' },
        /rule_list\[1\]: missing required field api_endpoint/,
      ],
      [
        'api with a pattern that does not compile',
        { render_strategy: 'api', api_endpoint: { ...APP_ENDPOINT, page_url_pattern: '^(?<p>x' } },
        /page_url_pattern does not compile/,
      ],
      [
        'api with a template naming a group the pattern lacks',
        {
          render_strategy: 'api',
          api_endpoint: { ...APP_ENDPOINT, endpoint_url_template: 'https://app.example/{id}' },
        },
        /names \{id\}, which page_url_pattern has no group for/,
      ],
      [
        'api with a template that is not an http(s) URL',
        {
          render_strategy: 'api',
          api_endpoint: { ...APP_ENDPOINT, endpoint_url_template: 'ftp://app.example/{path}' },
        },
        /endpoint_url_template is not an absolute http\(s\) URL/,
      ],
      [
        'api with a content_pointer that is not a JSON Pointer',
        { render_strategy: 'api', api_endpoint: { ...APP_ENDPOINT, content_pointer: 'text' } },
        /content_pointer is not a JSON Pointer/,
      ],
      [
        'render with an api_endpoint',
        { render_strategy: 'render', api_endpoint: APP_ENDPOINT },
        /rule_list\[1\]\.api_endpoint: must be null/,
      ],
      [
        'no render_strategy with an api_endpoint',
        { api_endpoint: APP_ENDPOINT },
        /rule_list\[1\]\.api_endpoint: must be null/,
      ],
      [
        'an api_endpoint missing a field (the schema)',
        {
          render_strategy: 'api',
          api_endpoint: { page_url_pattern: '^x$' } as unknown as ApiEndpoint,
        },
        /api_endpoint/,
      ],
    ];

    it.each(cases)(
      'refuses %s with 400 naming the rule, storing nothing',
      async (_, fields, problem) => {
        const { client } = scheduler;
        const request = client.submitRules({
          rule_list: [ruleFor('good.example'), ruleFor('app.example', fields)],
        });
        await expect(request).rejects.toMatchObject({ status: 400, errorCode: 'invalid_request' });
        const error = (await request.catch((caught: unknown) => caught)) as ContractHttpError;
        expect(error.body.message).toMatch(/^(body\.)?rule_list\[1\]/);
        expect(error.body.message).toMatch(problem);
        // Neither rule of the batch was stored: both are new when sent again, valid.
        expect(
          await client.submitRules({
            rule_list: [
              ruleFor('good.example'),
              ruleFor('app.example', { render_strategy: 'api', api_endpoint: APP_ENDPOINT }),
            ],
          }),
        ).toEqual({ accepted_count: 2, duplicate_count: 0, outdated_count: 0 });
      },
    );
  });

  describe('GET /v1/lease and POST /v1/report', () => {
    beforeEach(async () => {
      const { client } = scheduler;
      await client.submitRules({
        rule_list: [
          ruleFor('app.example', {
            render_strategy: 'api',
            api_endpoint: APP_ENDPOINT,
            revisit_interval_seconds: 3600,
          }),
          ruleFor('news.example', { render_strategy: 'render', api_endpoint: null }),
          ruleFor('old.example'), // a v1 sampler's rule: neither field
        ],
      });
      await client.submitSeeds({
        seed_list: [APP_SEED, 'https://news.example/a', 'https://old.example/a'].map((url) => ({
          url,
        })),
      });
    });

    async function leaseTaskOf(url: string): Promise<{ lease: LeaseResponse; task: LeaseTask }> {
      const lease = await scheduler.client.leaseTasks({ worker_id: 'w1', task_count: 50 });
      const task = lease.task_list.find((candidate) => candidate.url === url);
      if (task === undefined) throw new Error(`${url} not leased: ${JSON.stringify(lease)}`);
      return { lease, task };
    }

    async function reportOne(lease: LeaseResponse, result: ReportResult): Promise<void> {
      const answer = await scheduler.client.reportLease({
        lease_id: lease.lease_id,
        worker_id: lease.worker_id,
        result_list: [result],
      });
      expect(answer).toMatchObject({ is_stale_lease: false, accepted_count: 1 });
    }

    /** The URL's url_state as the operator view shows it; undefined: not in the frontier. */
    async function urlStateOf(url: string): Promise<string | undefined> {
      const parsed = parseFrontierUrl(url);
      if (typeof parsed === 'string') throw new Error(parsed);
      try {
        return (await scheduler.client.getUrlTask({ url_hash: parsed.urlHash })).url_state;
      } catch (error) {
        if ((error as ContractHttpError).status === 404) return undefined;
        throw error;
      }
    }

    async function appHealth(): Promise<string | undefined> {
      const summary = await scheduler.client.getFrontierSummary({ limit: 100 });
      return summary.domain_list.find((row) => row.domain === 'app.example')?.domain_health_state;
    }

    it('sends render with a null endpoint for render and v1 rules', async () => {
      const lease = await scheduler.client.leaseTasks({ worker_id: 'w1', task_count: 50 });
      const byUrl = new Map(lease.task_list.map((task) => [task.url, task]));
      for (const url of ['https://news.example/a', 'https://old.example/a']) {
        expect(byUrl.get(url)).toMatchObject({ render_strategy: 'render', api_endpoint: null });
      }
    });

    it('leases an api URL as render first, then as api, then as render again after the interval', async () => {
      // Never rendered: render, with the endpoint mapping as received (nested object intact).
      const first = await leaseTaskOf(APP_SEED);
      expect(first.task).toMatchObject({ render_strategy: 'render', api_endpoint: APP_ENDPOINT });
      await reportOne(
        first.lease,
        doneResult(first.task, {
          render_strategy: 'render',
          fetched_at: timeTextOf(clock.nowMs()),
          link_list: [link('https://app.example/articles/2')],
        }),
      );
      expect(await urlStateOf('https://app.example/articles/2')).toBe('queued'); // a render's link

      clock.advance(HOUR_MS); // due again (revisit 3600 s), rendered an hour ago
      const second = await leaseTaskOf(APP_SEED);
      expect(second.task).toMatchObject({ render_strategy: 'api', api_endpoint: APP_ENDPOINT });
      await reportOne(
        second.lease,
        doneResult(second.task, {
          render_strategy: 'api',
          fetched_at: timeTextOf(clock.nowMs()),
          // Off contract for api (its list is empty): sent to see it is not taken.
          link_list: [link('https://app.example/articles/3')],
          health_signal: healthySignal({ xhr_total_count: 100, xhr_error_count: 100 }),
        }),
      );
      // The api result's link was not queued, and its health counts paused nothing.
      expect(await urlStateOf('https://app.example/articles/3')).toBeUndefined();
      expect(await appHealth()).toBe('healthy');
      const task = await scheduler.client.getUrlTask({ url_hash: second.task.url_hash });
      expect(task).toMatchObject({ url_state: 'done', fetched_at: timeTextOf(clock.nowMs()) });

      // A day after the render (the interval), due again: rendered again.
      clock.advance(DAY_SECONDS * 1000 - HOUR_MS);
      const third = await leaseTaskOf(APP_SEED);
      expect(third.task).toMatchObject({ render_strategy: 'render', api_endpoint: APP_ENDPOINT });
    });
  });
});
