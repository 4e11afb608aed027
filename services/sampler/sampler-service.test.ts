import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchedulerClient } from '../../generated/scheduler';
import { ContractHttpError } from '../common/contract-runtime/client-errors';
import { startServiceProcess, type StartedServiceProcess } from '../common/testing/service-process';
import { urlHash } from '../common/url';
import { ManualClock } from './testing/manual-clock';
import {
  startTestSampler,
  TEST_SAMPLER_TOKEN,
  type TestSampler,
} from './testing/sampler-test-harness';
import { ScriptedDomainSampler } from './testing/scripted-domain-sampler';

/*
 * The sampler as a service: real HTTP, real LMDB, the generated clients, response validation on,
 * and a real scheduler process on the other side of GET /v1/domain-candidates and POST /v1/rules.
 * The procedure is scripted (its verdicts are the other half's business); the clock is manual so
 * a claim can expire without waiting.
 */

const SCHEDULER_TOKEN = 'sampler-test-scheduler-token-0123';
const DECIDED = 'render.example';
const UNDECIDED = ['gated-1.example', 'gated-2.example', 'gated-3.example'];

let workDirectory: string;
let scheduler: StartedServiceProcess;
let schedulerClient: SchedulerClient;
let sampler: TestSampler;
let clock: ManualClock;
let procedure: ScriptedDomainSampler;

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function expectRefusal(
  call: Promise<unknown>,
  status: number,
  errorCode: string,
): Promise<void> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ContractHttpError);
  expect({
    status: (error as ContractHttpError).status,
    errorCode: (error as ContractHttpError).errorCode,
  }).toEqual({
    status,
    errorCode,
  });
}

const urlState = async (url: string) =>
  (await schedulerClient.getUrlTask({ url_hash: urlHash(url) })).url_state;

beforeAll(async () => {
  workDirectory = mkdtempSync(join(tmpdir(), 'sampler-service-'));
  scheduler = await startServiceProcess(
    'scheduler',
    ['--data-dir', join(workDirectory, 'scheduler'), '--maintenance-interval-ms', '100'],
    // The in-process harness silences this process's logs; the child must still say it listens.
    { SCHEDULER_TOKEN, CONTRACT_VALIDATE_RESPONSES: '1', LOG_LEVEL: 'info' },
    60_000,
  );
  schedulerClient = new SchedulerClient({ baseUrl: scheduler.url, token: SCHEDULER_TOKEN });
  await schedulerClient.submitSeeds({
    seed_list: [DECIDED, ...UNDECIDED].map((domain) => ({ url: `http://${domain}/` })),
  });
  clock = new ManualClock(new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'));
  procedure = new ScriptedDomainSampler((domain) =>
    domain === DECIDED
      ? { verdict: 'csr', minIntervalMs: 1500, waitSelector: '#app' }
      : { verdict: 'unknown', undeterminedReason: 'login_required', minIntervalMs: 4000 },
  );
  sampler = await startTestSampler({
    clock,
    domainSampler: procedure,
    flags: ['--scheduler-url', scheduler.url, '--scheduler-token', SCHEDULER_TOKEN],
  });
}, 90_000);

afterAll(async () => {
  await sampler?.stop();
  await scheduler?.stop();
  rmSync(workDirectory, { recursive: true, force: true });
});

it('pulls the scheduler’s candidates, samples them and posts their rules until accepted', async () => {
  await waitFor('the csr domain to be queued by the scheduler', async () =>
    (await urlState(`http://${DECIDED}/`)) === 'queued' ? true : undefined,
  );
  for (const domain of UNDECIDED) {
    await waitFor(`${domain} to be dropped`, async () =>
      (await urlState(`http://${domain}/`)) === 'dropped' ? true : undefined,
    );
  }
  const summary = await schedulerClient.getFrontierSummary({ limit: 100 });
  expect(summary.domain_list.find((row) => row.domain === DECIDED)?.verdict).toBe('csr');
  expect((await schedulerClient.listDomainCandidates({})).domain_list).toEqual([]);
  expect(procedure.calls.map((call) => call.domain).sort()).toEqual([DECIDED, ...UNDECIDED].sort());
  expect(procedure.calls.find((call) => call.domain === DECIDED)?.seenUrlList).toEqual([
    `http://${DECIDED}/`,
  ]);

  // The rule reaches the scheduler (outbox) before the sampling that recorded it has rescheduled
  // its task and left the in-progress set: wait for the sampler's side to settle as well.
  const queue = await waitFor('the sampler to finish its samplings', async () => {
    const current = await sampler.client.getSamplingQueue({});
    return current.in_progress_count === 0 ? current : undefined;
  });
  expect(queue).toMatchObject({
    exported_domain_count: 3,
    in_progress_count: 0,
    due_count: 0,
    waiting_count: 4,
  });
  expect(queue.verdict_count_list).toEqual([
    { verdict: 'csr', domain_count: 1 },
    { verdict: 'partial', domain_count: 0 },
    { verdict: 'ssr', domain_count: 0 },
    { verdict: 'unknown', domain_count: 3 },
  ]);
  expect(queue.export_ratio).toBeCloseTo(0.75);
});

describe('consumer tokens and the export boundary', () => {
  let consumerToken: string;

  beforeAll(async () => {
    const issued = await sampler.client.issueConsumerToken({ consumer_id: 'legacy-crawler-1' });
    consumerToken = issued.consumer_token;
  });

  it('issues a token once, lists consumers without secrets, and refuses a second live token', async () => {
    expect(consumerToken).toMatch(/^ct\.legacy-crawler-1\./);
    const list = await sampler.client.listConsumerTokens();
    expect(list.consumer_list).toEqual([
      { consumer_id: 'legacy-crawler-1', issued_at: expect.any(String), revoked_at: null },
    ]);
    expect(JSON.stringify(list)).not.toContain(consumerToken);
    await expectRefusal(
      sampler.client.issueConsumerToken({ consumer_id: 'legacy-crawler-1' }),
      409,
      'consumer_already_exists',
    );
    await expectRefusal(
      sampler.client.issueConsumerToken({ consumer_id: 'Bad_Id' }),
      400,
      'invalid_request',
    );
  });

  it('takes each token only where its kind belongs: 403 on the sampler, 401 elsewhere', async () => {
    const consumer = sampler.consumerClient(consumerToken);
    await expectRefusal(consumer.listDomainClaims({}), 403, 'wrong_token_kind');
    await expectRefusal(consumer.listConsumerTokens(), 403, 'wrong_token_kind');
    await expectRefusal(sampler.client.listExportedDomains({}), 403, 'wrong_token_kind');
    await expectRefusal(
      sampler.consumerClient('ct.legacy-crawler-1.forged').listExportedDomains({}),
      401,
      'invalid_token',
    );
    const onScheduler = new SchedulerClient({
      baseUrl: scheduler.url,
      token: consumerToken,
      maximumAttemptCount: 1,
    });
    await expectRefusal(onScheduler.listDomainCandidates({}), 401, 'invalid_token');
  });

  it('exports undecided domains with their rate limit and robots data', async () => {
    const exported = await sampler.consumerClient(consumerToken).listExportedDomains({ limit: 10 });
    expect(exported.domain_list.map((row) => row.domain)).toEqual(UNDECIDED);
    expect(exported.domain_list[0]).toMatchObject({
      min_interval_ms: 4000,
      robots_txt: 'User-agent: *\nCrawl-delay: 2\n',
      undetermined_reason: 'login_required',
    });
  });

  it('claims for 7 days when asked for 30, and explains the truncation', async () => {
    const consumer = sampler.consumerClient(consumerToken);
    const claim = await consumer.claimDomains({ domain_count: 1, claim_ttl_seconds: 30 * 86_400 });
    expect(claim).toMatchObject({
      consumer_id: 'legacy-crawler-1',
      claim_ttl_seconds: 604_800,
      is_claim_ttl_truncated: true,
      domain_list: [{ domain: UNDECIDED[0], min_interval_ms: 4000 }],
    });
    expect(claim.claim_ttl_note).toContain('truncated to 604800');
    await expectRefusal(
      consumer.claimDomains({ domain_count: 1, claim_ttl_seconds: 59 }),
      400,
      'invalid_request',
    );
  });

  it('hands a short claim back by itself when it expires', async () => {
    const consumer = sampler.consumerClient(consumerToken);
    const claim = await consumer.claimDomains({ domain_count: 1, claim_ttl_seconds: 60 });
    expect(claim.domain_list.map((row) => row.domain)).toEqual([UNDECIDED[1]]);
    expect((await consumer.listExportedDomains({})).domain_list.map((row) => row.domain)).toEqual([
      UNDECIDED[2],
    ]);
    clock.advanceSeconds(61);
    expect((await consumer.listExportedDomains({})).domain_list.map((row) => row.domain)).toEqual([
      UNDECIDED[1],
      UNDECIDED[2],
    ]);
    const view = await sampler.client.listDomainClaims({});
    expect(view.claim_list.find((row) => row.claim_id === claim.claim_id)?.claim_state).toBe(
      'expired',
    );
  });

  it('applies a hint batch once: a repeat changes nothing and its counts say why', async () => {
    const consumer = sampler.consumerClient(consumerToken);
    const claim = await consumer.claimDomains({ domain_count: 2, claim_ttl_seconds: 3600 });
    const batch = {
      claim_id: claim.claim_id,
      hint_list: [
        {
          domain: claim.domain_list[0].domain,
          verdict: 'csr' as const,
          undetermined_reason: null,
          confidence_score: 0.9,
        },
        {
          domain: claim.domain_list[1].domain,
          verdict: 'csr' as const,
          undetermined_reason: null,
          confidence_score: 0.2,
        },
      ],
    };
    expect(await consumer.submitVerdictHints(batch)).toEqual({
      accepted_count: 1,
      rejected_count: 1,
      duplicate_count: 0,
    });
    expect(await consumer.submitVerdictHints(batch)).toEqual({
      accepted_count: 0,
      rejected_count: 0,
      duplicate_count: 2,
    });
    // The accepted hint became a rule, sent to the scheduler like a sampled one: a new URL of the
    // domain is now queued there instead of dropped.
    const hinted = claim.domain_list[0].domain;
    await waitFor('the hinted rule at the scheduler', async () => {
      const url = `http://${hinted}/page-${Date.now()}`;
      await schedulerClient.submitSeeds({ seed_list: [{ url }] });
      // Refused (domain_excluded, so no url task) while the scheduler still holds the unknown rule.
      return (await urlState(url).catch(() => undefined)) === 'queued' ? true : undefined;
    });
    const view = await sampler.client.listDomainClaims({});
    expect(view.summary.hint_count).toBe(2);
    expect(view.summary.resolution_ratio).toBeCloseTo(0.5);
    await expectRefusal(
      consumer.submitVerdictHints({ ...batch, claim_id: 'c-00000000' }),
      404,
      'claim_not_found',
    );
    await expectRefusal(
      consumer.submitVerdictHints({
        claim_id: claim.claim_id,
        hint_list: [
          {
            domain: 'x.example',
            verdict: 'unknown',
            undetermined_reason: null,
            confidence_score: 1,
          },
        ],
      }),
      400,
      'invalid_request',
    );
    const other = await sampler.client.issueConsumerToken({ consumer_id: 'whois-checker' });
    await expectRefusal(
      sampler.consumerClient(other.consumer_token).submitVerdictHints(batch),
      409,
      'claim_consumer_mismatch',
    );
  });

  it('refuses a revoked token on the very next request and releases its claims', async () => {
    const consumer = sampler.consumerClient(consumerToken);
    const before = await sampler.client.listDomainClaims({});
    expect(before.summary.active_claim_count).toBeGreaterThan(0);
    const revoked = await sampler.client.revokeConsumerToken({ consumer_id: 'legacy-crawler-1' });
    expect(revoked.revoked_at).not.toBeNull();
    await expectRefusal(consumer.listExportedDomains({}), 401, 'invalid_token');
    const after = await sampler.client.listDomainClaims({});
    expect(after.summary).toMatchObject({ active_claim_count: 0, claimed_domain_count: 0 });
    expect(
      after.claim_list
        .filter((row) => row.consumer_id === 'legacy-crawler-1')
        .map((row) => row.claim_state),
    ).toContain('revoked');
    await expectRefusal(
      sampler.client.revokeConsumerToken({ consumer_id: 'nobody' }),
      404,
      'consumer_not_found',
    );
    // A revoked consumer may be given a new token.
    const again = await sampler.client.issueConsumerToken({ consumer_id: 'legacy-crawler-1' });
    expect(again.consumer_token).not.toBe(consumerToken);
  });
});

it('answers the operator views without a token as 401', async () => {
  const anonymous = await fetch(`${sampler.url}/v1/operator/domain-claims`);
  expect(anonymous.status).toBe(401);
  expect(await anonymous.json()).toMatchObject({ error_code: 'missing_token' });
  expect(TEST_SAMPLER_TOKEN).toBeTruthy();
});
