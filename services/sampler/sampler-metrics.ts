import { Counter, Gauge, type Registry } from 'prom-client';

/** The sampler's Prometheus metrics (`sampler_*` on /metrics). */
export class SamplerMetrics {
  readonly samplingCount: Counter<'verdict'>;
  readonly samplingErrorCount: Counter;
  readonly samplingInProgress: Gauge;
  readonly claimedSkipCount: Counter;
  readonly candidateCount: Counter<'result'>;
  readonly rulePostCount: Counter<'result'>;
  readonly ruleOutboxDepth: Gauge;
  readonly claimCount: Counter<'truncation'>;
  readonly claimedDomainCount: Counter;
  readonly claimEndCount: Counter<'claim_state'>;
  readonly hintCount: Counter<'hint_decision'>;
  readonly hintDuplicateCount: Counter;
  readonly consumerTokenCount: Counter<'action'>;
  readonly apiEndpointHintCount: Counter<'result'>;
  readonly apiEndpointVerificationCount: Counter<'outcome'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.samplingCount = new Counter({
      name: 'sampler_sampling_total',
      help: 'Samplings that reached a verdict, by verdict',
      labelNames: ['verdict'],
      registers,
    });
    this.samplingErrorCount = new Counter({
      name: 'sampler_sampling_error_total',
      help: 'Samplings that ended in an error instead of a verdict (retried later)',
      registers,
    });
    this.samplingInProgress = new Gauge({
      name: 'sampler_sampling_in_progress',
      help: 'Domains being sampled now',
      registers,
    });
    this.claimedSkipCount = new Counter({
      name: 'sampler_claimed_domain_skip_total',
      help: 'Due samplings skipped because a consumer holds the domain',
      registers,
    });
    this.candidateCount = new Counter({
      name: 'sampler_domain_candidate_total',
      help: 'Domain candidates read from the scheduler, by what was done with them',
      labelNames: ['result'],
      registers,
    });
    this.rulePostCount = new Counter({
      name: 'sampler_rule_post_total',
      help: 'Rules sent to the scheduler (acknowledged, retry, dead_letter)',
      labelNames: ['result'],
      registers,
    });
    this.ruleOutboxDepth = new Gauge({
      name: 'sampler_rule_outbox_depth',
      help: 'Rules waiting for the scheduler to acknowledge them (up to one batch)',
      registers,
    });
    this.claimCount = new Counter({
      name: 'sampler_claim_total',
      help: 'Claims taken by external consumers (truncation: whether the TTL was capped)',
      labelNames: ['truncation'],
      registers,
    });
    this.claimedDomainCount = new Counter({
      name: 'sampler_claimed_domain_total',
      help: 'Domains handed to external consumers by claims',
      registers,
    });
    this.claimEndCount = new Counter({
      name: 'sampler_claim_end_total',
      help: 'Claims that ended, by how (expired, released, revoked)',
      labelNames: ['claim_state'],
      registers,
    });
    this.hintCount = new Counter({
      name: 'sampler_verdict_hint_total',
      help: 'Verdict hints reviewed, by decision',
      labelNames: ['hint_decision'],
      registers,
    });
    this.hintDuplicateCount = new Counter({
      name: 'sampler_verdict_hint_duplicate_total',
      help: 'Verdict hints received again (same claim_id + domain); nothing changed',
      registers,
    });
    this.consumerTokenCount = new Counter({
      name: 'sampler_consumer_token_total',
      help: 'Consumer tokens issued and revoked',
      labelNames: ['action'],
      registers,
    });
    this.apiEndpointHintCount = new Counter({
      name: 'sampler_api_endpoint_hint_total',
      help: "The downloader's API endpoint hints received (accepted, duplicate)",
      labelNames: ['result'],
      registers,
    });
    this.apiEndpointVerificationCount = new Counter({
      name: 'sampler_api_endpoint_verification_total',
      help: 'API endpoint checks of a domain, by outcome (verified, covered_by_rule, failed, deferred, not_eligible)',
      labelNames: ['outcome'],
      registers,
    });
  }
}
