import { effectiveClaimTtl, MAX_CLAIM_TTL_SECONDS } from './claim-ttl';
import { reviewHint } from './hint-review';

describe('claim TTL', () => {
  it('keeps a TTL up to 7 days as asked, with no note', () => {
    expect(effectiveClaimTtl(3600)).toEqual({
      claimTtlSeconds: 3600,
      isClaimTtlTruncated: false,
      claimTtlNote: null,
    });
    expect(effectiveClaimTtl(MAX_CLAIM_TTL_SECONDS).isClaimTtlTruncated).toBe(false);
  });

  it('truncates 30 days to 7 and says so: neither silent nor an error', () => {
    const ttl = effectiveClaimTtl(30 * 86_400);
    expect(ttl.claimTtlSeconds).toBe(604_800);
    expect(ttl.isClaimTtlTruncated).toBe(true);
    expect(ttl.claimTtlNote).toContain('2592000');
    expect(ttl.claimTtlNote).toContain('truncated to 604800');
  });
});

describe('hint review (sampler policy)', () => {
  const hint = (
    verdict: 'csr' | 'unknown',
    confidenceScore: number,
    reason: never | null = null,
  ) => ({
    verdict,
    undeterminedReason: reason,
    confidenceScore,
  });

  it('rejects anything outside a live claim first', () => {
    expect(reviewHint(hint('csr', 0.99), false, 0.5)).toBe('rejected_not_claimed');
  });

  it('writes a confident verdict and rejects one below the threshold', () => {
    expect(reviewHint(hint('csr', 0.82), true, 0.5)).toBe('rule_written');
    expect(reviewHint(hint('csr', 0.31), true, 0.5)).toBe('rejected_low_confidence');
    expect(reviewHint(hint('csr', 0.31), true, 0.3)).toBe('rule_written');
  });

  it('sends consumer_capability_exceeded back to backoff at any confidence, never to a human', () => {
    const exceeded = {
      verdict: 'unknown' as const,
      undeterminedReason: 'consumer_capability_exceeded' as const,
      confidenceScore: 0.4,
    };
    expect(reviewHint(exceeded, true, 0.5)).toBe('returned_to_backoff');
    expect(reviewHint({ ...exceeded, confidenceScore: 0 }, true, 0.5)).toBe('returned_to_backoff');
  });

  it('writes unknown with another reason (domain_not_resolvable) as a rule', () => {
    expect(
      reviewHint(
        { verdict: 'unknown', undeterminedReason: 'domain_not_resolvable', confidenceScore: 0.98 },
        true,
        0.5,
      ),
    ).toBe('rule_written');
  });
});
