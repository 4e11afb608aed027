import { startDemoSite, type DemoSite } from '../../../scripts/demo-site/demo-site';
import { SamplerClient } from '../../../generated/sampler';
import { ContractHttpError } from '../../common/contract-runtime/client-errors';
import {
  startTestDownloader,
  TEST_DOWNLOADER_TOKEN,
  type TestDownloader,
} from '../../downloader/testing/downloader-test-harness';
import {
  startRuleCollectingScheduler,
  type RuleCollectingScheduler,
} from '../testing/rule-collecting-scheduler';
import {
  startTestSampler,
  TEST_SAMPLER_TOKEN,
  type TestSampler,
} from '../testing/sampler-test-harness';
import { ScriptedDomainSampler } from '../testing/scripted-domain-sampler';
import { waitFor } from '../testing/wait-for';

/*
 * POST /v1/api-endpoint-hints on the real sampler service (HTTP, the generated router and client,
 * response validation on, real LMDB), and the sampler's own verification loop carrying a hint to
 * an api rule: its requests through a real downloader to the demo's API-backed host, the rule to
 * a scheduler router over HTTP. The verdict is scripted (csr); the verification is not.
 */

const HOST = '127.0.0.63';

jest.setTimeout(90_000);

let demo: DemoSite;
let base: string;
let downloader: TestDownloader;
let scheduler: RuleCollectingScheduler;
let sampler: TestSampler;

const hint = (page: string, endpoint: string, overrides: Record<string, unknown> = {}) => ({
  domain: HOST,
  page_url: `${base}${page}`,
  endpoint_url: `${base}${endpoint}`,
  content_pointer: '',
  matched_character_count: 40,
  text_character_count: 44,
  observed_at: '2026-08-15T06:59:00Z',
  ...overrides,
});

async function refusal(call: Promise<unknown>): Promise<ContractHttpError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ContractHttpError);
  return error as ContractHttpError;
}

/** A raw POST, for bodies the generated client's types would not let through. */
function postRaw(body: unknown): Promise<Response> {
  return fetch(`${sampler.url}/v1/api-endpoint-hints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_SAMPLER_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  demo = await startDemoSite({ hosts: [HOST], clientRenderedHosts: [HOST] });
  [base] = demo.baseUrls;
  downloader = await startTestDownloader({
    allowDestinations: [HOST],
    extraArguments: ['--default-min-interval-ms', '100'],
  });
  scheduler = await startRuleCollectingScheduler();
  sampler = await startTestSampler({
    domainSampler: new ScriptedDomainSampler(() => ({
      verdict: 'csr',
      minIntervalMs: 100,
      waitSelector: '#app > article',
    })),
    flags: [
      '--scheduler-url',
      scheduler.url,
      '--scheduler-token',
      scheduler.token,
      '--downloader-url',
      downloader.url,
      '--downloader-token',
      TEST_DOWNLOADER_TOKEN,
      '--api-hint-check-interval-ms',
      '100',
    ],
  });
}, 90_000);

afterAll(async () => {
  await sampler?.stop();
  await scheduler?.close();
  await downloader?.dispose();
  await demo?.stop();
});

describe('hint intake', () => {
  it('refuses a call without the service token', async () => {
    for (const token of ['', 'not-the-token-0123456789']) {
      const client = new SamplerClient({ baseUrl: sampler.url, token, maximumAttemptCount: 1 });
      const error = await refusal(
        client.submitApiEndpointHints({ hint_list: [hint('/articles/1', '/api/x?p=1')] }),
      );
      expect(error.status).toBe(401);
    }
  });

  it('refuses a body the schema refuses', async () => {
    const { content_pointer: _dropped, ...incomplete } = hint('/articles/1', '/api/x');
    for (const body of [{ hint_list: [] }, { hint_list: [incomplete] }, {}]) {
      const answer = await postRaw(body);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error_code: string }).error_code).toBe('invalid_request');
    }
  });

  it('refuses a batch with a URL off the domain or an endpoint on another origin, naming the hint and storing nothing', async () => {
    const good = hint('/articles/1', '/api/page?path=%2Farticles%2F1');
    const otherPort = `http://${HOST}:${Number(new URL(base).port) + 1}`;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ page_url: 'http://127.0.0.64/articles/1' }, /page_url is on 127\.0\.0\.64/],
      [{ endpoint_url: 'http://127.0.0.64/api/x' }, /endpoint_url is on 127\.0\.0\.64/],
      [{ endpoint_url: `${otherPort}/api/x` }, /another origin/],
      [{ page_url: 'ftp://127.0.0.63/a' }, /page_url is not a crawlable URL/],
      [{ content_pointer: 'heading' }, /content_pointer/],
    ];
    for (const [overrides, message] of cases) {
      const error = await refusal(
        sampler.client.submitApiEndpointHints({
          hint_list: [good, hint('/articles/2', '/api/y', overrides)],
        }),
      );
      expect({ status: error.status, errorCode: error.errorCode }).toEqual({
        status: 400,
        errorCode: 'invalid_request',
      });
      expect(error.message).toMatch(/hint_list\[1\]/);
      expect(error.message).toMatch(message);
    }
    expect(await sampler.core.apiHintVerifier.hintsOf(HOST)).toEqual([]);
  });

  it('stores new hints once and counts repeats as duplicates', async () => {
    const first = hint('/articles/1', '/api/page?path=%2Farticles%2F1');
    const second = hint('/articles/2', '/api/page?path=%2Farticles%2F2');
    expect(
      await sampler.client.submitApiEndpointHints({ hint_list: [first, second, first] }),
    ).toEqual({ accepted_count: 2, duplicate_count: 1 });
    expect(
      await sampler.client.submitApiEndpointHints({
        // Another spelling of the same endpoint is the same hint.
        hint_list: [{ ...second, endpoint_url: second.endpoint_url.replace('%2F', '%2f') }],
      }),
    ).toEqual({ accepted_count: 0, duplicate_count: 1 });
    const stored = await sampler.core.apiHintVerifier.hintsOf(HOST);
    expect(stored.map((row) => row.endpoint_url).sort()).toEqual([
      first.endpoint_url,
      second.endpoint_url,
    ]);
    const metrics = await (await fetch(`${sampler.url}/metrics`)).text();
    expect(metrics).toMatch(/sampler_api_endpoint_hint_total\{result="accepted"\} 2/);
    expect(metrics).toMatch(/sampler_api_endpoint_hint_total\{result="duplicate"\} 2/);
  });
});

it('its loop verifies the stored hints once the domain is decided csr and posts the api rule', async () => {
  await sampler.core.enqueueDomain(HOST, [`${base}/articles/1`]);
  const posted = await waitFor(
    'the api rule at the scheduler',
    () => scheduler.rules.find((rule) => rule.domain === HOST && rule.render_strategy === 'api'),
    60_000,
  );
  expect(posted).toMatchObject({
    verdict: 'csr',
    wait_selector: '#app > article',
    api_endpoint: {
      endpoint_url_template: `${base}/api/page?path={path}`,
      content_pointer: '',
    },
  });
  // The render rule went first; the api rule is newer.
  const renderRule = scheduler.rules.find((rule) => rule.domain === HOST);
  expect(renderRule?.render_strategy).toBe('render');
  expect(Date.parse(posted.verified_at)).toBeGreaterThan(Date.parse(renderRule!.verified_at));
  // The loop counts the verification once the scheduler accepted the rule: the fake scheduler
  // holds the rule a moment before the counter moves (seen on a loaded CI machine).
  const verifiedLine = /sampler_api_endpoint_verification_total\{outcome="verified"\} 1/;
  await waitFor(
    'the verification counted',
    async () => verifiedLine.test(await (await fetch(`${sampler.url}/metrics`)).text()),
    10_000,
  );
});
