import type { components } from '../../generated/scheduler/types';
import {
  ClaimConsumerMismatchError,
  ClaimNotFoundError,
  InvalidHintError,
} from './claims/claim-errors';
import type { SampleTaskDocument } from './storage/sampler-documents';
import { openTestCore, type TestCore } from './testing/sampler-core-fixture';
import { ScriptedDomainSampler, type ScriptedOutcome } from './testing/scripted-domain-sampler';
import { waitFor } from './testing/wait-for';
import type { DomainRuleWire } from './storage/sampler-documents';

// The rule's fields as one flat shape (the generated DomainRule is a union of its verdict variants).
type DomainRule = DomainRuleWire;

/*
 * The sampler's claim, hint and backoff logic on real LMDB with a manual clock: claims expire by
 * the clock alone, a 30-day backoff passes in a line, and the scripted procedure stands in for the
 * sampling requests (this is the loop's control flow, not the verdicts).
 */

const UNDECIDED = ['a.example', 'b.example', 'c.example', 'd.example'];

let fixture: TestCore;
let sampler: ScriptedDomainSampler;
let posted: DomainRule[];
let outcomes: Map<string, ScriptedOutcome>;

async function sampleNow(domains: string[]): Promise<void> {
  for (const domain of domains) {
    await fixture.core.enqueueDomain(domain, [`http://${domain}/`]);
  }
  await fixture.core.loop.tick();
  await fixture.core.loop.settle();
  // A second pass for anything the concurrency left behind.
  await fixture.core.loop.tick();
  await fixture.core.loop.settle();
}

async function task(domain: string): Promise<SampleTaskDocument> {
  return (await fixture.core.queue.get(domain)) as SampleTaskDocument;
}

const hint = (
  domain: string,
  verdict: 'csr' | 'partial' | 'ssr' | 'unknown',
  confidence_score: number,
  undetermined_reason: components['schemas']['DomainRule']['undetermined_reason'] = null,
) => ({ domain, verdict, undetermined_reason, confidence_score });

beforeEach(async () => {
  outcomes = new Map(
    UNDECIDED.map((domain) => [
      domain,
      { verdict: 'unknown', undeterminedReason: 'challenge_detected' },
    ]),
  );
  outcomes.set('shop.example', { verdict: 'csr', minIntervalMs: 3000 });
  sampler = new ScriptedDomainSampler(
    (domain) => outcomes.get(domain) ?? new Error(`no script for ${domain}`),
  );
  posted = [];
  fixture = await openTestCore({
    domainSampler: sampler,
    submitRules: async (ruleList) => {
      posted.push(...ruleList);
      return { accepted_count: ruleList.length, duplicate_count: 0, outdated_count: 0 };
    },
    settings: { samplingConcurrency: 4, undecidedBackoffDays: [1, 3, 6] },
  });
  await sampleNow([...UNDECIDED, 'shop.example']);
});

afterEach(async () => {
  await fixture.close();
});

describe('sampling outcomes', () => {
  it('exports undecided domains with their interval and robots data, and not decided ones', async () => {
    const exported = await fixture.core.listExportedDomains(100);
    expect(exported.domain_list.map((row) => row.domain)).toEqual(UNDECIDED);
    expect(exported.domain_list[0]).toMatchObject({
      min_interval_ms: 2000,
      robots_txt: 'User-agent: *\nCrawl-delay: 2\n',
      undetermined_reason: 'challenge_detected',
    });
    expect((await fixture.core.rules.get('shop.example'))?.verdict).toBe('csr');
  });

  it('posts every rule, unknown ones included, through the outbox', async () => {
    fixture.core.poster?.start();
    await waitFor('five rules at the scheduler', () => posted.length === 5);
    expect(posted.map((rule) => [rule.domain, rule.verdict]).sort()).toEqual([
      ['a.example', 'unknown'],
      ['b.example', 'unknown'],
      ['c.example', 'unknown'],
      ['d.example', 'unknown'],
      ['shop.example', 'csr'],
    ]);
    expect(posted.find((rule) => rule.domain === 'a.example')?.undetermined_reason).toBe(
      'challenge_detected',
    );
    await waitFor(
      'the outbox to empty',
      async () => (await fixture.core.poster?.pendingCount()) === 0,
    );
  });

  it('re-samples an undecided domain on the backoff schedule and a decided one after the period', async () => {
    const first = await task('a.example');
    expect(first.undecided_sample_count).toBe(1);
    expect(Date.parse(first.due_at) - fixture.clock.nowMs()).toBe(86_400_000);
    expect(Date.parse((await task('shop.example')).due_at) - fixture.clock.nowMs()).toBe(
      30 * 86_400_000,
    );

    fixture.clock.advanceDays(1);
    await sampleNow([]);
    const second = await task('a.example');
    expect(second.undecided_sample_count).toBe(2);
    expect(Date.parse(second.due_at) - fixture.clock.nowMs()).toBe(3 * 86_400_000);
    expect(sampler.callsFor('a.example')).toBe(2);
    expect(sampler.callsFor('shop.example')).toBe(1);
  });

  it('retries a sampling that failed without a verdict sooner, counting the attempts', async () => {
    outcomes.delete('a.example');
    fixture.clock.advanceDays(1);
    await sampleNow([]);
    const failed = await task('a.example');
    expect(failed.attempt_count).toBe(1);
    expect(Date.parse(failed.due_at) - fixture.clock.nowMs()).toBe(300_000);
    // The domain stays exported as it was: an error teaches nothing new.
    expect((await fixture.core.claims.getDomain('a.example'))?.undetermined_reason).toBe(
      'challenge_detected',
    );
  });
});

describe('claims', () => {
  it('truncates a 30-day claim to 7 days and says so in the answer', async () => {
    const claim = await fixture.core.claimDomains('crawler-1', {
      domain_count: 2,
      claim_ttl_seconds: 2_592_000,
    });
    expect(claim).toMatchObject({
      consumer_id: 'crawler-1',
      claim_ttl_seconds: 604_800,
      is_claim_ttl_truncated: true,
      expires_at: '2026-08-22T07:00:00Z',
    });
    expect(claim.claim_id).toMatch(/^c-[0-9a-f]{8}$/);
    expect(claim.claim_ttl_note).toMatch(/truncated to 604800/);
    expect(claim.domain_list).toEqual([
      { domain: 'a.example', min_interval_ms: 2000, robots_txt: 'User-agent: *\nCrawl-delay: 2\n' },
      { domain: 'b.example', min_interval_ms: 2000, robots_txt: 'User-agent: *\nCrawl-delay: 2\n' },
    ]);
    // Claimed domains are no longer offered; a second consumer gets the others.
    const second = await fixture.core.claimDomains('crawler-2', {
      domain_count: 10,
      claim_ttl_seconds: 3600,
    });
    expect(second.domain_list.map((row) => row.domain)).toEqual(['c.example', 'd.example']);
    expect(second).toMatchObject({ is_claim_ttl_truncated: false, claim_ttl_note: null });
    expect((await fixture.core.listExportedDomains(100)).domain_list).toEqual([]);
  });

  it('sends no sampling request for a claimed domain, even when it falls due', async () => {
    await fixture.core.claimDomains('crawler-1', {
      domain_count: 1,
      claim_ttl_seconds: 5 * 86_400,
    });
    fixture.clock.advanceDays(2); // a.example (claimed) and b.example are both due
    await sampleNow([]);
    expect(sampler.callsFor('a.example')).toBe(1);
    expect(sampler.callsFor('b.example')).toBe(2);
    // It waits for the claim's expiry, then returns to re-sampling by itself.
    expect((await task('a.example')).due_at).toBe('2026-08-20T07:00:00Z');
    fixture.clock.advanceDays(3);
    await sampleNow([]);
    expect(sampler.callsFor('a.example')).toBe(2);
  });

  it('restores the deferred due time when a claim ends early, so the domain is sampled again', async () => {
    const claim = await fixture.core.claimDomains('crawler-1', {
      domain_count: 1,
      claim_ttl_seconds: 5 * 86_400,
    });
    fixture.clock.advanceDays(2);
    await sampleNow([]);
    expect(sampler.callsFor('a.example')).toBe(1);
    expect((await task('a.example')).due_at).toBe('2026-08-20T07:00:00Z');
    const answer = await fixture.core.submitVerdictHints('crawler-1', {
      claim_id: claim.claim_id,
      hint_list: [hint('a.example', 'unknown', 0.4, 'consumer_capability_exceeded')],
    });
    expect(answer).toEqual({ accepted_count: 1, rejected_count: 0, duplicate_count: 0 });
    expect((await task('a.example')).due_at).toBe('2026-08-16T07:00:00Z');
    await sampleNow([]);
    expect(sampler.callsFor('a.example')).toBe(2);
  });

  it('never lets a claim take a domain being sampled', async () => {
    fixture.clock.advanceDays(1);
    const release = sampler.hold('a.example');
    await fixture.core.loop.tick();
    await waitFor('a.example to be in progress', () => fixture.core.loop.isSampling('a.example'));
    const claim = await fixture.core.claimDomains('crawler-1', {
      domain_count: 10,
      claim_ttl_seconds: 3600,
    });
    expect(claim.domain_list.map((row) => row.domain)).not.toContain('a.example');
    expect(
      (await fixture.core.listExportedDomains(100)).domain_list.map((row) => row.domain),
    ).not.toContain('a.example');
    release();
    await fixture.core.loop.settle();
    expect(
      (await fixture.core.listExportedDomains(100)).domain_list.map((row) => row.domain),
    ).toEqual(['a.example']);
  });

  it('hands domains back at expiry with nobody acting: expiry is read from the clock', async () => {
    const claim = await fixture.core.claimDomains('crawler-1', {
      domain_count: 2,
      claim_ttl_seconds: 60,
    });
    expect((await fixture.core.listExportedDomains(100)).domain_list).toHaveLength(2);
    fixture.clock.advanceSeconds(61);
    // No sweep has run: the claim is already expired for every reader.
    expect((await fixture.core.listExportedDomains(100)).domain_list).toHaveLength(4);
    const view = await fixture.core.domainClaimsView(10);
    expect(view.claim_list[0]).toMatchObject({ claim_id: claim.claim_id, claim_state: 'expired' });
    expect(view.summary).toMatchObject({ active_claim_count: 0, claimed_domain_count: 0 });
    // A hint after expiry is rejected and counted.
    const late = await fixture.core.submitVerdictHints('crawler-1', {
      claim_id: claim.claim_id,
      hint_list: [hint('a.example', 'csr', 0.95)],
    });
    expect(late).toEqual({ accepted_count: 0, rejected_count: 1, duplicate_count: 0 });
    expect((await fixture.core.rules.get('a.example'))?.verdict).toBe('unknown');
    // The sweeper then tidies the stored state.
    expect(await fixture.core.sweepClaims()).toBe(1);
    expect((await fixture.core.claims.getClaim(claim.claim_id))?.claim_state).toBe('expired');
  });

  it('releases a revoked consumer’s claims at once and refuses its token', async () => {
    const issued = await fixture.core.issueConsumerToken('crawler-1');
    expect(await fixture.core.consumerTokens.authenticate(issued.consumerToken)).toEqual({
      tokenKind: 'consumer',
      consumerId: 'crawler-1',
    });
    const claim = await fixture.core.claimDomains('crawler-1', {
      domain_count: 3,
      claim_ttl_seconds: 3600,
    });
    await fixture.core.revokeConsumerToken('crawler-1');
    expect(await fixture.core.consumerTokens.authenticate(issued.consumerToken)).toBeNull();
    expect((await fixture.core.claims.getClaim(claim.claim_id))?.claim_state).toBe('revoked');
    expect((await fixture.core.listExportedDomains(100)).domain_list).toHaveLength(4);
  });
});

describe('verdict hints', () => {
  async function claimAll() {
    return fixture.core.claimDomains('crawler-1', { domain_count: 10, claim_ttl_seconds: 3600 });
  }

  it('decides each hint by policy and counts accepted and rejected', async () => {
    const claim = await claimAll();
    const answer = await fixture.core.submitVerdictHints('crawler-1', {
      claim_id: claim.claim_id,
      hint_list: [
        hint('a.example', 'ssr', 0.9),
        hint('b.example', 'csr', 0.31),
        hint('c.example', 'unknown', 0.4, 'consumer_capability_exceeded'),
        hint('d.example', 'unknown', 0.98, 'domain_not_resolvable'),
        hint('elsewhere.example', 'csr', 0.99),
      ],
    });
    expect(answer).toEqual({ accepted_count: 3, rejected_count: 2, duplicate_count: 0 });

    // ssr: a rule written, with the sampler's own interval and robots data; decided, not exported.
    const ssr = await fixture.core.rules.get('a.example');
    expect(ssr).toMatchObject({
      verdict: 'ssr',
      min_interval_ms: 2000,
      rule_origin: 'verdict_hint',
    });
    expect(ssr?.robots_txt).toBe('User-agent: *\nCrawl-delay: 2\n');
    expect(await fixture.core.claims.getDomain('a.example')).toBeUndefined();
    // Re-verified after the period like a sampled verdict.
    expect((await task('a.example')).due_at).toBe('2026-09-14T07:00:00Z');
    // Low confidence: no rule, but the domain is handed back and offered again.
    expect((await fixture.core.rules.get('b.example'))?.verdict).toBe('unknown');
    // consumer_capability_exceeded: back to backoff, still exported; no rule from the hint.
    expect((await fixture.core.rules.get('c.example'))?.rule_origin).toBe('sampling');
    // domain_not_resolvable: written as the rule's reason; still undecided and exported.
    expect(await fixture.core.rules.get('d.example')).toMatchObject({
      verdict: 'unknown',
      undetermined_reason: 'domain_not_resolvable',
    });
    expect(
      (await fixture.core.listExportedDomains(100)).domain_list.map((row) => row.domain),
    ).toEqual(['b.example', 'c.example', 'd.example']);
    // Every domain of the claim handed back: the claim is released.
    expect((await fixture.core.claims.getClaim(claim.claim_id))?.claim_state).toBe('released');

    const view = await fixture.core.domainClaimsView(10);
    expect(view.summary).toMatchObject({ hint_count: 5, resolution_ratio: 2 / 5 });
    expect(view.recent_hint_list.map((row) => [row.domain, row.hint_decision]).sort()).toEqual([
      ['a.example', 'rule_written'],
      ['b.example', 'rejected_low_confidence'],
      ['c.example', 'returned_to_backoff'],
      ['d.example', 'rule_written'],
      ['elsewhere.example', 'rejected_not_claimed'],
    ]);
  });

  it('changes nothing when a batch is sent again, and says why in the counts', async () => {
    const claim = await claimAll();
    const batch = {
      claim_id: claim.claim_id,
      hint_list: [
        hint('a.example', 'csr', 0.9),
        hint('b.example', 'csr', 0.1),
        hint('a.example', 'ssr', 0.9),
      ],
    };
    expect(await fixture.core.submitVerdictHints('crawler-1', batch)).toEqual({
      accepted_count: 1,
      rejected_count: 1,
      duplicate_count: 1,
    });
    const rule = await fixture.core.rules.get('a.example');
    fixture.clock.advanceSeconds(5);
    expect(await fixture.core.submitVerdictHints('crawler-1', batch)).toEqual({
      accepted_count: 0,
      rejected_count: 0,
      duplicate_count: 3,
    });
    expect(await fixture.core.rules.get('a.example')).toEqual(rule);
    expect(rule?.verdict).toBe('csr');
    expect((await fixture.core.domainClaimsView(10)).summary.hint_count).toBe(2);
  });

  it('refuses a batch for an unknown claim, another consumer’s claim, or a malformed hint', async () => {
    const claim = await claimAll();
    await expect(
      fixture.core.submitVerdictHints('crawler-1', {
        claim_id: 'c-00000000',
        hint_list: [hint('a.example', 'csr', 1)],
      }),
    ).rejects.toBeInstanceOf(ClaimNotFoundError);
    await expect(
      fixture.core.submitVerdictHints('crawler-2', {
        claim_id: claim.claim_id,
        hint_list: [hint('a.example', 'csr', 1)],
      }),
    ).rejects.toBeInstanceOf(ClaimConsumerMismatchError);
    await expect(
      fixture.core.submitVerdictHints('crawler-1', {
        claim_id: claim.claim_id,
        hint_list: [hint('a.example', 'unknown', 1)],
      }),
    ).rejects.toBeInstanceOf(InvalidHintError);
    // Nothing of the refused batches was recorded.
    expect((await fixture.core.domainClaimsView(10)).summary.hint_count).toBe(0);
  });
});
