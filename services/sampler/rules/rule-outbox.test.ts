import {
  ContractHttpError,
  ContractTransportError,
} from '../../common/contract-runtime/client-errors';
import { openStorageBackend } from '../../common/storage/open-storage-backend';
import { openServiceKeyspace } from '../../common/storage/service-keyspace';
import { openSamplerTables } from '../storage/sampler-tables';
import { openTestCore, type TestCore } from '../testing/sampler-core-fixture';
import { ScriptedDomainSampler } from '../testing/scripted-domain-sampler';
import { waitFor } from '../testing/wait-for';
import type { DomainRuleWire } from '../storage/sampler-documents';

// The rule's fields as one flat shape (the generated DomainRule is a union of its verdict variants).
type DomainRule = DomainRuleWire;

/*
 * A decided rule must reach the scheduler whatever happens: written to the outbox before the rule
 * table, re-sent at start, retried until the scheduler accepts, and only the rule at fault dropped
 * when the scheduler refuses one for good.
 */

const fixtures: TestCore[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.close();
});

const sampler = new ScriptedDomainSampler((domain) =>
  domain.startsWith('bad') ? { verdict: 'csr', minIntervalMs: -1 } : { verdict: 'csr' },
);

async function decide(fixture: TestCore, domains: string[]): Promise<void> {
  for (const domain of domains) await fixture.core.enqueueDomain(domain);
  await fixture.core.loop.tick();
  await fixture.core.loop.settle();
}

it('sends at the next start what a stopped sampler could not deliver', async () => {
  const first = await openTestCore({ domainSampler: sampler });
  await decide(first, ['one.example', 'two.example']);
  await first.close({ keepData: true });

  const posted: DomainRule[] = [];
  const second = await openTestCore({
    dataDirectory: first.dataDirectory,
    domainSampler: sampler,
    submitRules: async (ruleList) => {
      posted.push(...ruleList);
      return { accepted_count: ruleList.length, duplicate_count: 0, outdated_count: 0 };
    },
  });
  fixtures.push(second);
  second.core.poster?.start();
  await waitFor('two rules at the scheduler', () => posted.length === 2);
  expect(posted.map((rule) => rule.domain).sort()).toEqual(['one.example', 'two.example']);
  // Exactly the wire fields of DomainRule travel, nothing of the sampler's own.
  expect(Object.keys(posted[0]).sort()).toEqual(
    [
      'domain',
      'verdict',
      'undetermined_reason',
      'min_interval_ms',
      'wait_selector',
      'priority_rank',
      'robots_txt',
      'verified_at',
      'revisit_interval_seconds',
      'render_strategy',
      'api_endpoint',
    ].sort(),
  );
  // A sampled rule is a render rule until an API endpoint is verified (v2).
  expect(posted[0]).toMatchObject({ render_strategy: 'render', api_endpoint: null });
  await waitFor(
    'the outbox to empty',
    async () => (await second.core.poster?.pendingCount()) === 0,
  );
});

it('restores a rule whose write a crash cut off after the outbox row', async () => {
  const first = await openTestCore({ domainSampler: sampler });
  await decide(first, ['cut.example']);
  const rule = await first.core.rules.get('cut.example');
  await first.close({ keepData: true });

  // The crash: the outbox holds a newer rule than the rule table.
  const backend = await openStorageBackend({
    backendName: 'lmdb',
    dataDirectory: first.dataDirectory,
  });
  const tables = openSamplerTables(openServiceKeyspace('sampler', backend));
  const newer = { ...rule!, verdict: 'partial' as const, verified_at: '2026-08-15T08:00:00Z' };
  await tables.ruleOutbox.put('cut.example', { domain_rule: newer, queued_at: newer.verified_at });
  await backend.close();

  const second = await openTestCore({ dataDirectory: first.dataDirectory, domainSampler: sampler });
  fixtures.push(second);
  expect(await second.core.rules.get('cut.example')).toEqual(newer);
  expect(second.core.rules.verdictCounts().get('partial')).toBe(1);
});

it('retries until the scheduler accepts, and drops only the rule it refuses for good', async () => {
  let callCount = 0;
  const posted: DomainRule[] = [];
  const fixture = await openTestCore({
    domainSampler: sampler,
    submitRules: async (ruleList) => {
      callCount += 1;
      if (callCount <= 2)
        throw new ContractTransportError('submitRules', 1, new Error('ECONNREFUSED'));
      if (ruleList.some((rule) => rule.min_interval_ms < 0)) {
        throw new ContractHttpError('submitRules', 400, {
          error_code: 'invalid_request',
          message: 'rule_list/0/min_interval_ms must be >= 0',
        });
      }
      posted.push(...ruleList);
      return { accepted_count: ruleList.length, duplicate_count: 0, outdated_count: 0 };
    },
  });
  fixtures.push(fixture);
  await decide(fixture, ['good-1.example', 'bad.example', 'good-2.example']);
  fixture.core.poster?.start();
  await waitFor(
    'the condition',
    async () => (await fixture.core.poster?.pendingCount()) === 0,
    10_000,
  );
  expect(callCount).toBeGreaterThan(3);
  expect(posted.map((rule) => rule.domain).sort()).toEqual(['good-1.example', 'good-2.example']);
  const metrics = await fixture.core.metrics.rulePostCount.get();
  const deadLetters = metrics.values.find((value) => value.labels.result === 'dead_letter');
  expect(deadLetters?.value).toBe(1);
});
