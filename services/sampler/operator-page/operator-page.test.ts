import type { Browser } from 'puppeteer-core';
import { launchTestBrowser } from '../../common/testing/launch-test-browser';
import {
  expectTokenRefusedThenForgotten,
  openOperatorPage,
  rowCells,
  textOf,
} from '../../common/testing/operator-page-browser';
import { takeOperatorScreenshot } from '../../common/testing/operator-page-screenshot';
import { ManualClock } from '../testing/manual-clock';
import {
  startTestSampler,
  TEST_SAMPLER_TOKEN,
  type TestSampler,
} from '../testing/sampler-test-harness';
import { ScriptedDomainSampler } from '../testing/scripted-domain-sampler';
import { waitFor } from '../testing/wait-for';

// Seed 004's page as a person sees it: opened in a real Chromium, once on a sampler with claims,
// hints and a sampling queue, once on an empty one.

let browser: Browser;
let busy: TestSampler;
let empty: TestSampler;

beforeAll(async () => {
  const clock = new ManualClock(new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'));
  const procedure = new ScriptedDomainSampler((domain) =>
    domain.startsWith('app')
      ? { verdict: 'csr' }
      : { verdict: 'unknown', undeterminedReason: 'challenge_detected', minIntervalMs: 3000 },
  );
  busy = await startTestSampler({ clock, domainSampler: procedure });
  for (const domain of [
    'app.example',
    'gone.example.net',
    'members.example.com',
    'odd.example.hk',
  ]) {
    await busy.core.enqueueDomain(domain);
  }
  await waitFor(
    'four domains sampled, three of them undecided',
    async () => {
      await busy.core.loop.tick();
      await busy.core.loop.settle();
      return busy.core.rules.ruledDomainCount === 4 && busy.core.claims.exportedDomainCount === 3;
    },
    20_000,
  );
  const { consumer_token: token } = await busy.client.issueConsumerToken({
    consumer_id: 'legacy-crawler-1',
  });
  const consumer = busy.consumerClient(token);
  const claim = await consumer.claimDomains({ domain_count: 3, claim_ttl_seconds: 30 * 86_400 });
  expect(claim.domain_list.map((row) => row.domain)).toEqual([
    'gone.example.net',
    'members.example.com',
    'odd.example.hk',
  ]);
  await consumer.submitVerdictHints({
    claim_id: claim.claim_id,
    hint_list: [
      {
        domain: 'members.example.com',
        verdict: 'ssr',
        undetermined_reason: null,
        confidence_score: 0.9,
      },
      {
        domain: 'odd.example.hk',
        verdict: 'csr',
        undetermined_reason: null,
        confidence_score: 0.31,
      },
    ],
  });
  clock.advanceSeconds(3 * 3600);
  empty = await startTestSampler();
  browser = await launchTestBrowser(['127.0.0.1']);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await busy?.stop();
  await empty?.stop();
});

test('serves a static page without data or secret, under strict headers', async () => {
  const response = await fetch(`${busy.url}/operator`);
  expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  const html = await response.text();
  expect(html).not.toContain(TEST_SAMPLER_TOKEN);
  expect(html).not.toContain('legacy-crawler-1');
  const script = await (await fetch(`${busy.url}/operator/assets/page.js`)).text();
  expect(script).not.toContain('innerHTML');
});

test('shows claims, hints, the two rates with how to read them, and the sampling queue', async () => {
  const { page, pageErrors } = await openOperatorPage(browser, busy.url, TEST_SAMPLER_TOKEN);
  expect(await page.evaluate(() => window.location.hash)).toBe('');
  expect(await page.evaluate(() => sessionStorage.getItem('sampler-operator-token'))).toBe(
    TEST_SAMPLER_TOKEN,
  );

  expect(await textOf(page, '#claimed-domain-count')).toBe('1');
  expect(await textOf(page, '#active-claim-count')).toBe('1');
  expect(await textOf(page, '#hint-count')).toBe('2');
  expect(await textOf(page, '#resolution-ratio')).toBe('50.0%');
  // 3 undecided of 4 ruled, then one hinted ssr: 2 undecided of 4.
  expect(await textOf(page, '#export-ratio')).toBe('50.0%');
  expect((await rowCells(page, '#reading-table tbody tr')).map((cells) => cells[0])).toEqual([
    'export rate rising',
    'hint resolution rate high',
    'hint resolution rate low',
  ]);

  const [claimRow] = await rowCells(page, '#claim-table tbody tr');
  expect(claimRow.slice(1, 4)).toEqual(['legacy-crawler-1', '3', '604,800']);
  expect(claimRow[5]).toBe('6 d 21 h');
  expect(claimRow.slice(6)).toEqual(['2', 'active']);

  const hints = await rowCells(page, '#hint-table tbody tr');
  expect(hints.map((cells) => [cells[0], cells[2], cells[4], cells[5]]).sort()).toEqual([
    ['members.example.com', 'ssr', '0.90', 'confirmed, rule written'],
    ['odd.example.hk', 'csr', '0.31', 'rejected: confidence too low'],
  ]);

  expect(await textOf(page, '#exported-domain-count')).toBe('2');
  expect(await textOf(page, '#in-progress-count')).toBe('0');
  expect(await rowCells(page, '#verdict-table tbody tr')).toEqual([
    ['csr', '1', 'queues and renders normally'],
    ['partial', '0', 'queues at a lower priority'],
    ['ssr', '1', 'drops the domain (an external module owns it)'],
    ['unknown', '2', 'drops the domain; exported to consumers'],
  ]);
  const tasks = await rowCells(page, '#task-table tbody tr');
  expect(tasks.map((cells) => cells[0]).sort()).toEqual([
    'app.example',
    'gone.example.net',
    'members.example.com',
    'odd.example.hk',
  ]);
  expect(tasks.every((cells) => cells[1] === 'waiting')).toBe(true);
  expect((await takeOperatorScreenshot(page, 'sampler-operator-full')).length).toBeGreaterThan(
    1000,
  );
  expect(pageErrors).toEqual([]);
  await page.close();
});

test('says "nothing to show" in every empty table, without a script error', async () => {
  const { page, pageErrors } = await openOperatorPage(browser, empty.url, TEST_SAMPLER_TOKEN);
  for (const table of ['#claim-table', '#hint-table', '#task-table']) {
    expect(await rowCells(page, `${table} tbody tr`)).toEqual([['nothing to show']]);
  }
  expect(await textOf(page, '#resolution-ratio')).toBe('no hints');
  expect(await textOf(page, '#export-ratio')).toBe('0.0%');
  expect((await takeOperatorScreenshot(page, 'sampler-operator-empty')).length).toBeGreaterThan(
    1000,
  );
  expect(pageErrors).toEqual([]);
  await page.close();
});

test('asks for the token when it is refused, and forgets it', () =>
  expectTokenRefusedThenForgotten(browser, empty.url, TEST_SAMPLER_TOKEN));
