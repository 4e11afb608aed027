import { join } from 'node:path';
import type { ContractHttpError } from '../common/contract-runtime/client-errors';
import { LmdbBackend } from '../common/storage/lmdb-backend';
import { openServiceKeyspace } from '../common/storage/service-keyspace';
import { openFrontierTables } from './frontier/frontier-tables';
import { doneResult, link, ruleFor } from './testing/contract-fixtures';
import { seedUrls, urlCounts } from './testing/lease-helpers';
import { ManualClock } from './testing/manual-clock';
import {
  startTestScheduler,
  TEST_SCHEDULER_TOKEN,
  type TestScheduler,
} from './testing/scheduler-test-harness';

const ROBOTS_TXT = 'User-agent: *\nDisallow: /private/\n';

describe('rules, seeds, links and domain candidates', () => {
  let clock: ManualClock;
  let scheduler: TestScheduler;

  beforeEach(async () => {
    clock = new ManualClock();
    scheduler = await startTestScheduler({ clock, flags: ['--domain-in-flight-cap', '100'] });
  });
  afterEach(() => scheduler.stop());

  /** Leases everything due and reports it done with `links` on the first page. */
  async function crawlOnePageWithLinks(links: ReturnType<typeof link>[]): Promise<void> {
    const lease = await scheduler.client.leaseTasks({ worker_id: 'w1', task_count: 1 });
    expect(lease.task_list).toHaveLength(1);
    await scheduler.client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: [doneResult(lease.task_list[0], { link_list: links })],
    });
  }

  describe('POST /v1/rules', () => {
    it('is idempotent by domain + verified_at and never lets an older rule overwrite a newer one', async () => {
      const { client } = scheduler;
      const rule = ruleFor('news.example', {
        min_interval_ms: 2000,
        verified_at: '2026-08-15T06:00:00Z',
      });
      expect(await client.submitRules({ rule_list: [rule] })).toEqual({
        accepted_count: 1,
        duplicate_count: 0,
        outdated_count: 0,
      });
      // A repeat — even with different content — is a duplicate and changes nothing.
      expect(await client.submitRules({ rule_list: [{ ...rule, min_interval_ms: 5 }] })).toEqual({
        accepted_count: 0,
        duplicate_count: 1,
        outdated_count: 0,
      });
      expect(
        await client.submitRules({
          rule_list: [{ ...rule, min_interval_ms: 10, verified_at: '2026-08-14T00:00:00Z' }],
        }),
      ).toEqual({ accepted_count: 0, duplicate_count: 0, outdated_count: 1 });
      await client.submitSeeds({ seed_list: [{ url: 'https://news.example/' }] });
      const lease = await client.leaseTasks({ worker_id: 'w1' });
      expect(lease.task_list[0].min_interval_ms).toBe(2000);

      await client.submitRules({
        rule_list: [{ ...rule, min_interval_ms: 3000, verified_at: '2026-08-15T07:00:00Z' }],
      });
      await client.submitSeeds({ seed_list: [{ url: 'https://news.example/next' }] });
      // Two intervals of the old rule: w1's first lease of the domain reserved its robots.txt slot.
      clock.advance(4000);
      expect((await client.leaseTasks({ worker_id: 'w1' })).task_list[0].min_interval_ms).toBe(
        3000,
      );
    });

    it('refuses incoherent rules with 400 and stores none of the request', async () => {
      const { client } = scheduler;
      const cases = [
        ruleFor('a.example', { verdict: 'unknown', undetermined_reason: null }),
        ruleFor('a.example', { verdict: 'csr', undetermined_reason: 'login_required' }),
        ruleFor('Upper.Example'),
        ruleFor('https://a.example/'),
      ];
      for (const bad of cases) {
        const request = client.submitRules({ rule_list: [ruleFor('good.example'), bad] });
        await expect(request).rejects.toMatchObject({ status: 400, errorCode: 'invalid_request' });
        await request.catch((error: ContractHttpError) =>
          // The verdict pairing is the schema's rule (the router names it); the host shape the
          // scheduler's own.
          expect(error.body.message).toMatch(/^(body\.)?rule_list\[1\]/),
        );
      }
      expect(
        (await client.submitRules({ rule_list: [ruleFor('good.example')] })).accepted_count,
      ).toBe(1);
    });

    it('accepts a rule with fields the contract does not define and stores only the contract fields', async () => {
      // Issue 11 defect 6: "Extra" broke the storage convention (500, whole batch refused) and an
      // unknown snake_case field was stored verbatim in the replica.
      const response = await fetch(`${scheduler.url}/v1/rules`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${TEST_SCHEDULER_TOKEN}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          rule_list: [
            // contract-gate-ignore-next-line: unknown fields on purpose, to see them tolerated, not kept
            { ...ruleFor('news.example'), Extra: 1, extra_field: 2 },
            ruleFor('other.example'),
            // … and inside a nullable object (anyOf [ApiEndpoint, null]).
            {
              ...ruleFor('app.example'),
              render_strategy: 'api',
              api_endpoint: {
                page_url_pattern: '^https://app\\.example(?<path>/[^?#]*)$',
                endpoint_url_template: 'https://app.example/api/page?path={path}',
                content_pointer: '',
                extra_field: 3,
              },
            },
          ],
        }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ accepted_count: 3 });
      await scheduler.stop({ keepData: true });
      const backend = await LmdbBackend.open(join(scheduler.dataDirectory, 'scheduler'));
      try {
        const { rules } = openFrontierTables(openServiceKeyspace('scheduler', backend));
        const stored = await rules.get('news.example');
        // Every contract field, the v2 ones included (null here: a v1 rule, read as render).
        expect(Object.keys(stored ?? {}).sort()).toEqual(
          [
            ...Object.keys(ruleFor('news.example')),
            'render_strategy',
            'api_endpoint',
            'received_at',
          ].sort(),
        );
        expect(stored).toMatchObject({ render_strategy: null, api_endpoint: null });
        expect(Object.keys((await rules.get('app.example'))?.api_endpoint ?? {}).sort()).toEqual([
          'content_pointer',
          'endpoint_url_template',
          'page_url_pattern',
        ]);
      } finally {
        await backend.close();
      }
      scheduler = await startTestScheduler({ clock, dataDirectory: scheduler.dataDirectory });
    });

    it('refuses a revisit_interval_seconds no date can hold, storing nothing', async () => {
      const { client } = scheduler;
      const rule = ruleFor('news.example', { revisit_interval_seconds: 9e15 });
      await expect(client.submitRules({ rule_list: [rule] })).rejects.toMatchObject({
        status: 400,
        errorCode: 'invalid_request',
      });
      expect(await client.submitRules({ rule_list: [ruleFor('news.example')] })).toMatchObject({
        accepted_count: 1,
      });
    });
  });

  describe('POST /v1/seeds', () => {
    it('normalizes, de-duplicates and lists every refused seed with its reason', async () => {
      const { client } = scheduler;
      await client.submitRules({
        rule_list: [
          ruleFor('news.example', { robots_txt: ROBOTS_TXT }),
          ruleFor('static.example', { verdict: 'ssr' }),
          ruleFor('odd.example', {
            verdict: 'unknown',
            undetermined_reason: 'sample_insufficient',
          }),
        ],
      });
      const answer = await client.submitSeeds({
        seed_list: [
          { url: 'https://news.example/a' },
          { url: 'HTTPS://NEWS.example:443/a#top' },
          { url: 'https://news.example/private/x' },
          { url: 'https://static.example/' },
          { url: 'https://odd.example/' },
          { url: 'ftp://news.example/' },
          { url: 'not a url' },
          { url: 'https://unknown.example/first' },
        ],
      });
      expect(answer.accepted_count).toBe(2);
      expect(answer.rejected_list).toEqual([
        { url: 'HTTPS://NEWS.example:443/a#top', reject_reason: 'duplicate_url' },
        { url: 'https://news.example/private/x', reject_reason: 'robots_disallowed' },
        { url: 'https://static.example/', reject_reason: 'domain_excluded' },
        { url: 'https://odd.example/', reject_reason: 'domain_excluded' },
        { url: 'ftp://news.example/', reject_reason: 'unsupported_scheme' },
        { url: 'not a url', reject_reason: 'invalid_url' },
      ]);
      expect(answer.rejected_count).toBe(6);
      expect(
        (await client.submitSeeds({ seed_list: [{ url: 'https://news.example/a?' }] }))
          .rejected_list,
      ).toEqual([{ url: 'https://news.example/a?', reject_reason: 'duplicate_url' }]);
      expect(await urlCounts(client)).toMatchObject({ queued: 1, waiting_for_rule: 1 });
    });

    it('refuses a host beyond the DNS limits as invalid_url and keeps working', async () => {
      const { client } = scheduler;
      // 988 characters once put a storage key over its limit halfway through a commit.
      const longHosts = [980, 1000].map((length) => `${'h'.repeat(length)}.invalid`);
      const answer = await client.submitSeeds({
        seed_list: [
          { url: 'https://fresh.example/' },
          ...longHosts.map((host) => ({ url: `http://${host}/p` })),
        ],
      });
      expect(answer.rejected_list.map((rejected) => rejected.reject_reason)).toEqual([
        'invalid_url',
        'invalid_url',
      ]);
      expect(answer.accepted_count).toBe(1);
      await client.submitRules({ rule_list: [ruleFor('fresh.example')] });
      const lease = await client.leaseTasks({ worker_id: 'w1' });
      expect(lease.task_list.map((task) => task.url)).toEqual(['https://fresh.example/']);
    });

    it("honours a seed's priority_rank over the rule's", async () => {
      const { client } = scheduler;
      await client.submitRules({ rule_list: [ruleFor('news.example', { priority_rank: 50 })] });
      await client.submitSeeds({
        seed_list: [
          { url: 'https://news.example/late' },
          { url: 'https://news.example/first', priority_rank: 1 },
        ],
      });
      const lease = await client.leaseTasks({ worker_id: 'w1', task_count: 2 });
      expect(lease.task_list.map((task) => [task.url, task.priority_rank])).toEqual([
        ['https://news.example/first', 1],
        ['https://news.example/late', 50],
      ]);
    });
  });

  describe('domain candidates', () => {
    it('lists domains without a rule oldest first, then queues their URLs when a csr rule arrives', async () => {
      const { client } = scheduler;
      await client.submitSeeds({ seed_list: seedUrls(['first.example'], 12) });
      clock.advance(5000);
      await client.submitSeeds({ seed_list: seedUrls(['second.example'], 1) });
      expect((await client.leaseTasks({ worker_id: 'w1' })).task_list).toHaveLength(0);

      const candidates = await client.listDomainCandidates({ limit: 10 });
      expect(candidates.domain_list.map((row) => [row.domain, row.url_count])).toEqual([
        ['first.example', 12],
        ['second.example', 1],
      ]);
      expect(candidates.domain_list[0].first_seen_at).toBe('2026-08-15T07:00:00Z');
      expect(candidates.domain_list[0].sample_url_list).toHaveLength(10);
      expect((await client.listDomainCandidates({ limit: 1 })).domain_list).toHaveLength(1);

      await client.submitRules({
        rule_list: [ruleFor('first.example', { robots_txt: 'User-agent: *\nDisallow: /page-1\n' })],
      });
      const lease = await client.leaseTasks({ worker_id: 'w1', task_count: 50 });
      // page-1, page-10 and page-11 are disallowed by the rule's robots.txt.
      expect(lease.task_list).toHaveLength(9);
      expect((await client.listDomainCandidates({})).domain_list.map((row) => row.domain)).toEqual([
        'second.example',
      ]);
      expect(await urlCounts(client)).toMatchObject({ waiting_for_rule: 1, leased: 9, failed: 3 });
    });

    it('drops the waiting URLs of a domain judged ssr or unknown', async () => {
      const { client } = scheduler;
      await client.submitSeeds({ seed_list: seedUrls(['static.example', 'odd.example'], 3) });
      await client.submitRules({
        rule_list: [
          ruleFor('static.example', { verdict: 'ssr' }),
          ruleFor('odd.example', {
            verdict: 'unknown',
            undetermined_reason: 'render_inconsistent',
          }),
        ],
      });
      expect(await urlCounts(client)).toMatchObject({ dropped: 6, waiting_for_rule: 0, queued: 0 });
      expect((await client.listDomainCandidates({})).domain_list).toEqual([]);
    });

    it('drops queued URLs when a newer rule excludes the domain', async () => {
      const { client } = scheduler;
      await client.submitRules({ rule_list: [ruleFor('news.example')] });
      await client.submitSeeds({ seed_list: seedUrls(['news.example'], 4) });
      await client.submitRules({
        rule_list: [
          ruleFor('news.example', { verdict: 'ssr', verified_at: '2026-08-15T06:30:00Z' }),
        ],
      });
      expect(await urlCounts(client)).toMatchObject({ dropped: 4, queued: 0 });
      expect((await client.leaseTasks({ worker_id: 'w1' })).task_list).toHaveLength(0);
    });

    it('revives a dropped URL offered again once its domain is crawlable, and only then', async () => {
      const { client } = scheduler;
      await client.submitRules({ rule_list: [ruleFor('news.example')] });
      await client.submitSeeds({ seed_list: seedUrls(['news.example'], 2) });
      await client.submitRules({
        rule_list: [
          ruleFor('news.example', { verdict: 'ssr', verified_at: '2026-08-15T06:30:00Z' }),
        ],
      });
      // Still excluded: offered again, a dropped URL stays dropped.
      const whileExcluded = await client.submitSeeds({ seed_list: seedUrls(['news.example'], 1) });
      expect(whileExcluded.rejected_list.map((row) => row.reject_reason)).toEqual([
        'domain_excluded',
      ]);
      await client.submitRules({
        rule_list: [ruleFor('news.example', { verified_at: '2026-08-15T07:00:00Z' })],
      });
      const revived = await client.submitSeeds({ seed_list: seedUrls(['news.example'], 1) });
      expect(revived.accepted_count).toBe(1);
      expect(await urlCounts(client)).toMatchObject({ dropped: 1, queued: 1 });
      // With no dropped URL left in the frontier, every known URL is a plain duplicate.
      const second = await client.submitSeeds({ seed_list: seedUrls(['news.example'], 2) });
      expect(second.accepted_count).toBe(1);
      expect(second.rejected_list).toEqual([
        { url: 'https://news.example/page-0', reject_reason: 'duplicate_url' },
      ]);
      expect(await urlCounts(client)).toMatchObject({ dropped: 0, queued: 2 });
      const again = await client.submitSeeds({ seed_list: seedUrls(['news.example'], 2) });
      expect(again.rejected_list.map((row) => row.reject_reason)).toEqual([
        'duplicate_url',
        'duplicate_url',
      ]);
    });
  });

  describe('links of a report', () => {
    beforeEach(async () => {
      await scheduler.client.submitRules({
        rule_list: [
          ruleFor('news.example', { robots_txt: ROBOTS_TXT, priority_rank: 10 }),
          ruleFor('static.example', { verdict: 'ssr' }),
        ],
      });
      await scheduler.client.submitSeeds({ seed_list: [{ url: 'https://news.example/' }] });
    });

    it('skips nofollow, robots-disallowed and excluded links, de-duplicates, and queues the rest', async () => {
      await crawlOnePageWithLinks([
        link('https://news.example/a'),
        link('https://news.example/a#again'),
        link('https://news.example/sponsored', { rel: 'sponsored nofollow' }),
        link('https://news.example/private/secret'),
        link('https://static.example/page'),
        link('https://news.example/'),
        link('https://new.example/home', { dom_position: 'footer' }),
      ]);
      const next = await scheduler.client.leaseTasks({ worker_id: 'w1', task_count: 50 });
      expect(next.task_list.map((task) => task.url)).toEqual(['https://news.example/a']);
      const candidates = await scheduler.client.listDomainCandidates({});
      expect(candidates.domain_list.map((row) => row.domain)).toEqual(['new.example']);
      // Not queued: offered again as seeds, they are new to the frontier.
      const reseeded = await scheduler.client.submitSeeds({
        seed_list: [
          { url: 'https://news.example/sponsored' },
          { url: 'https://static.example/page' },
        ],
      });
      expect(reseeded.rejected_list).toEqual([
        { url: 'https://static.example/page', reject_reason: 'domain_excluded' },
      ]);
      expect(reseeded.accepted_count).toBe(1);
      // The link-preparation thread is still working (one that failed would have handed its work
      // to the main thread and shown 0 here): it prepared the links with --http-thread off, and
      // stands by for the HTTP thread's preparation, which prepared them with it on.
      const metrics = await (await fetch(`${scheduler.url}/metrics`)).text();
      expect(metrics).toMatch(/^scheduler_link_preparation_thread_count 1$/m);
    });

    it('drops a link whose host is beyond the DNS limits and applies the rest of the report', async () => {
      await crawlOnePageWithLinks([
        link(`http://${'h'.repeat(980)}.invalid/p`),
        link('https://news.example/kept'),
      ]);
      const next = await scheduler.client.leaseTasks({ worker_id: 'w1', task_count: 50 });
      expect(next.task_list.map((task) => task.url)).toEqual(['https://news.example/kept']);
      const candidates = await scheduler.client.listDomainCandidates({});
      expect(candidates.domain_list).toEqual([]);
    });

    it('ranks links by dom_position: the main content of list pages first, footers last', async () => {
      const mainLinks = Array.from({ length: 10 }, (_, index) =>
        link(`https://news.example/story-${index}`),
      );
      await crawlOnePageWithLinks([
        link('https://news.example/about', { dom_position: 'footer' }),
        link('https://news.example/section', { dom_position: 'navigation' }),
        link('https://news.example/related', { dom_position: 'aside' }),
        ...mainLinks,
      ]);
      const lease = await scheduler.client.leaseTasks({ worker_id: 'w1', task_count: 50 });
      const ranks = new Map(lease.task_list.map((task) => [task.url, task.priority_rank]));
      expect(ranks.get('https://news.example/story-0')).toBe(10);
      expect(ranks.get('https://news.example/related')).toBe(40);
      expect(ranks.get('https://news.example/section')).toBe(50);
      expect(ranks.get('https://news.example/about')).toBe(60);
      expect(lease.task_list.slice(0, 10).every((task) => task.url.includes('/story-'))).toBe(true);
      expect(lease.task_list[lease.task_list.length - 1].url).toBe('https://news.example/about');
    });
  });
});
