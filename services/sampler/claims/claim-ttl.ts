/** CONTRACT.md §四: a claim lives at most 7 days. */
export const MAX_CLAIM_TTL_SECONDS = 604_800;

export interface EffectiveClaimTtl {
  claimTtlSeconds: number;
  isClaimTtlTruncated: boolean;
  /** Says what was truncated and why; null when nothing was. */
  claimTtlNote: string | null;
}

/**
 * A request above the cap is truncated **and the answer says so** — neither silent nor an error:
 * the consumer learns when its claim really lapses and why, and can plan a second claim.
 */
export function effectiveClaimTtl(requestedSeconds: number): EffectiveClaimTtl {
  if (requestedSeconds <= MAX_CLAIM_TTL_SECONDS) {
    return { claimTtlSeconds: requestedSeconds, isClaimTtlTruncated: false, claimTtlNote: null };
  }
  return {
    claimTtlSeconds: MAX_CLAIM_TTL_SECONDS,
    isClaimTtlTruncated: true,
    claimTtlNote:
      `claim_ttl_seconds ${requestedSeconds} exceeds the cap of ${MAX_CLAIM_TTL_SECONDS} (7 days); ` +
      `truncated to ${MAX_CLAIM_TTL_SECONDS}. A claim lives at most 7 days so that domains held by ` +
      'a consumer that stopped reporting return to re-sampling; claim again after it lapses.',
  };
}
