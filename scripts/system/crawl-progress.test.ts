import {
  doneResult,
  failedResult,
  ruleFor,
} from '../../services/scheduler/testing/contract-fixtures';
import { seedUrls } from '../../services/scheduler/testing/lease-helpers';
import { ManualClock } from '../../services/scheduler/testing/manual-clock';
import { startTestScheduler } from '../../services/scheduler/testing/scheduler-test-harness';
import { crawlProgressLine, fetchStrategyText, parkedCountsOf } from './crawl-progress';

const METRICS = [
  '# HELP scheduler_parked_url_total URLs parked as failed, by reason and the last fail_reason.',
  '# TYPE scheduler_parked_url_total counter',
  'scheduler_parked_url_total{park_reason="robots_disallowed",fail_reason="robots_disallowed"} 3',
  'scheduler_parked_url_total{park_reason="attempts_exhausted",fail_reason="navigation_timeout"} 1',
  'scheduler_parked_url_total{park_reason="lease_expiries_exhausted",fail_reason="none"} 0',
  'scheduler_leased_task_total 17',
].join('\n');

test('reads the parked-URL counter, leaving zero samples out', () => {
  expect([...parkedCountsOf(METRICS)]).toEqual([
    ['robots_disallowed/robots_disallowed', 3],
    ['attempts_exhausted/navigation_timeout', 1],
  ]);
});

test('says why URLs failed, most frequent reason first', () => {
  const line = crawlProgressLine(
    [
      { url_state: 'queued', url_count: 0 },
      { url_state: 'done', url_count: 12 },
      { url_state: 'failed', url_count: 4 },
    ],
    parkedCountsOf(METRICS),
  );
  expect(line).toBe(
    'done 12, failed 4 (3 refused by robots.txt, 1 gave up after repeated navigation_timeout)',
  );
});

test('names failures it has no reason for (from before the scheduler started), and none when no URL failed', () => {
  const parked = parkedCountsOf(METRICS);
  expect(crawlProgressLine([{ url_state: 'failed', url_count: 6 }], parked)).toBe(
    'failed 6 (3 refused by robots.txt, 1 gave up after repeated navigation_timeout, 2 before this start)',
  );
  expect(crawlProgressLine([{ url_state: 'done', url_count: 2 }], parked)).toBe('done 2');
  expect(crawlProgressLine([{ url_state: 'failed', url_count: 1 }], new Map())).toBe('failed 1');
});

test("explains a real scheduler's failed URLs from its /metrics", async () => {
  const scheduler = await startTestScheduler({ clock: new ManualClock() });
  try {
    await scheduler.client.submitRules({ rule_list: [ruleFor('news.example')] });
    await scheduler.client.submitSeeds({ seed_list: seedUrls(['news.example'], 2) });
    const lease = await scheduler.client.leaseTasks({ worker_id: 'w1', task_count: 2 });
    expect(lease.task_list).toHaveLength(2);
    await scheduler.client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: [
        failedResult(lease.task_list[0], 'robots_disallowed'),
        doneResult(lease.task_list[1]),
      ],
    });
    const summary = await scheduler.client.getFrontierSummary({ limit: 1 });
    const metricsText = await (await fetch(`${scheduler.url}/metrics`)).text();
    expect(crawlProgressLine(summary.url_state_list, parkedCountsOf(metricsText))).toBe(
      'done 1, failed 1 (1 refused by robots.txt)',
    );
  } finally {
    await scheduler.stop();
  }
});

describe('the fetch strategy part of the crawl line', () => {
  it('says how many pages were rendered and how many came through a JSON API', () => {
    const text = [
      '# TYPE downloader_lease_task_strategy_total counter',
      'downloader_lease_task_strategy_total{leased_strategy="render",render_strategy="render"} 56',
      'downloader_lease_task_strategy_total{leased_strategy="api",render_strategy="render"} 2',
      'downloader_lease_task_strategy_total{leased_strategy="api",render_strategy="api"} 6',
    ].join('\n');
    expect(fetchStrategyText(text)).toBe(' · fetched: 58 rendered, 6 through a JSON API');
  });

  it('says nothing before any page went through an API', () => {
    expect(
      fetchStrategyText(
        'downloader_lease_task_strategy_total{leased_strategy="render",render_strategy="render"} 9',
      ),
    ).toBe('');
    expect(fetchStrategyText('')).toBe('');
  });
});
