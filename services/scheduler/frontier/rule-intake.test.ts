import { ruleFor, type DomainRuleFields } from '../testing/contract-fixtures';
import { seedUrls } from '../testing/lease-helpers';
import { leaseFrom, openTestFrontier, type TestFrontier } from '../testing/test-frontier';
import { IncoherentRuleError } from './frontier-errors';

/* POST /v1/rules without HTTP: the replica, its idempotency, and the rule applied to waiting URLs. */
describe('RuleIntake', () => {
  let frontier: TestFrontier;

  beforeEach(async () => {
    frontier = await openTestFrontier({ settings: { domainInFlightCap: 50 } });
  });
  afterEach(() => frontier.dispose());

  it('is idempotent by domain + verified_at; an older rule never overwrites a newer one', async () => {
    const { ruleIntake, rules, tables } = frontier.parts;
    const rule = ruleFor('news.example', { verified_at: '2026-08-15T06:00:00Z' });
    expect(await ruleIntake.submit([rule])).toEqual({
      accepted_count: 1,
      duplicate_count: 0,
      outdated_count: 0,
    });
    expect(await ruleIntake.submit([{ ...rule, min_interval_ms: 5 }])).toMatchObject({
      duplicate_count: 1,
    });
    expect(
      await ruleIntake.submit([{ ...rule, verified_at: '2026-08-14T00:00:00Z' }]),
    ).toMatchObject({ outdated_count: 1 });
    expect(rules.get('news.example')?.minIntervalMs).toBe(0);
    frontier.clock.advance(60_000);
    await ruleIntake.submit([
      { ...rule, min_interval_ms: 700, verified_at: '2026-08-15T07:00:00Z' },
    ]);
    expect(rules.get('news.example')?.minIntervalMs).toBe(700);
    expect(await tables.rules.get('news.example')).toMatchObject({
      min_interval_ms: 700,
      received_at: '2026-08-15T07:01:00Z', // the injected clock's time of receipt
    });
  });

  it('refuses an incoherent rule before storing any of the list', async () => {
    const { ruleIntake, tables } = frontier.parts;
    await expect(
      ruleIntake.submit([
        ruleFor('good.example'),
        ruleFor('odd.example', { verdict: 'unknown', undetermined_reason: null }),
      ]),
    ).rejects.toEqual(new IncoherentRuleError(1, 'verdict unknown requires undetermined_reason'));
    await expect(ruleIntake.submit([ruleFor('Upper.Example')])).rejects.toBeInstanceOf(
      IncoherentRuleError,
    );
    expect(await tables.rules.get('good.example')).toBeUndefined();
  });

  it('refuses an api rule without a usable api_endpoint, and an api_endpoint without api, storing none of the list', async () => {
    const { ruleIntake, tables, rules } = frontier.parts;
    const endpoint = {
      page_url_pattern: '^https://app\\.example/(?<id>[0-9]+)$',
      endpoint_url_template: 'https://app.example/api/{id}',
      content_pointer: '/text',
    };
    const cases: Array<[Partial<DomainRuleFields>, string]> = [
      [{ render_strategy: 'api', api_endpoint: null }, 'render_strategy api requires api_endpoint'],
      [{ render_strategy: 'api' }, 'render_strategy api requires api_endpoint'],
      [
        {
          render_strategy: 'api',
          api_endpoint: { ...endpoint, page_url_pattern: '^(?<id>[0-9]+' },
        },
        'api_endpoint: page_url_pattern does not compile',
      ],
      [
        {
          render_strategy: 'api',
          api_endpoint: { ...endpoint, endpoint_url_template: 'https://app.example/api/{item}' },
        },
        'api_endpoint: endpoint_url_template names {item}',
      ],
      [
        { render_strategy: 'render', api_endpoint: endpoint },
        'api_endpoint must be null unless render_strategy is api',
      ],
      [{ api_endpoint: endpoint }, 'api_endpoint must be null unless render_strategy is api'],
    ];
    for (const [overrides, problem] of cases) {
      const submitted = ruleIntake.submit([
        ruleFor('good.example'),
        ruleFor('app.example', overrides),
      ]);
      await expect(submitted).rejects.toBeInstanceOf(IncoherentRuleError);
      await expect(submitted).rejects.toThrow(`rule_list[1]: ${problem}`);
    }
    expect(await tables.rules.get('good.example')).toBeUndefined();
    expect(await tables.rules.get('app.example')).toBeUndefined();
    expect(rules.get('good.example')).toBeUndefined();
    // The same rule with a usable endpoint is accepted.
    await ruleIntake.submit([
      ruleFor('app.example', { render_strategy: 'api', api_endpoint: endpoint }),
    ]);
    expect(rules.get('app.example')).toMatchObject({
      renderStrategy: 'api',
      apiEndpoint: endpoint,
    });
  });

  it('queues the URLs waiting for a csr rule (robots.txt applied) and drops those of an excluded domain', async () => {
    const { ruleIntake, seedIntake, summary } = frontier.parts;
    await seedIntake.submit(seedUrls(['wanted.example', 'static.example'], 3));
    await ruleIntake.submit([
      ruleFor('wanted.example', { robots_txt: 'User-agent: *\nDisallow: /page-0\n' }),
      ruleFor('static.example', { verdict: 'ssr' }),
    ]);
    const counts = Object.fromEntries(
      summary
        .summarize(10, frontier.clock.nowMs())
        .url_state_list.map((row) => [row.url_state, row.url_count]),
    );
    expect(counts).toMatchObject({ queued: 2, failed: 1, dropped: 3, waiting_for_rule: 0 });
    expect((await leaseFrom(frontier.parts)).task_list.map((task) => task.url).sort()).toEqual([
      'https://wanted.example/page-1',
      'https://wanted.example/page-2',
    ]);
  });

  it("drops an excluded domain's queue but leaves a leased URL to its lease, losing nothing", async () => {
    const { ruleIntake, seedIntake, tables, store, mutator, reclaimer } = frontier.parts;
    await ruleIntake.submit([ruleFor('news.example')]);
    await seedIntake.submit(seedUrls(['news.example'], 3));
    const lease = await leaseFrom(frontier.parts, { taskCount: 1, leaseTtlSeconds: 10 });
    const [held] = lease.task_list;
    await ruleIntake.submit([
      ruleFor('news.example', { verdict: 'ssr', verified_at: '2026-08-15T06:30:00Z' }),
    ]);
    const countsOf = () =>
      Object.fromEntries(
        frontier.parts.summary
          .summarize(10, frontier.clock.nowMs())
          .url_state_list.map((row) => [row.url_state, row.url_count]),
      );
    expect(countsOf()).toMatchObject({ dropped: 2, leased: 1, queued: 0 });
    const dueHashes = async () =>
      (await tables.dueIndex.scanKeys({ limit: 100 })).keys.map((key) => key.parts[3]);
    expect(await dueHashes()).toEqual([held.url_hash]);
    // The lease expires: the URL goes back to its queue, with its entry — not lost.
    frontier.clock.advance(11_000);
    await mutator.run((batch) => reclaimer.reclaimDue(batch, frontier.clock.nowMs(), 10));
    const [task] = await store.readUrlTasks([held.url_hash]);
    expect(task?.url_state).toBe('queued');
    expect(await dueHashes()).toEqual([held.url_hash]);
    expect(countsOf()).toMatchObject({ dropped: 2, leased: 0, queued: 1 });
  });
});
