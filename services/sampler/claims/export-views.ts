import type { components } from '../../../generated/sampler/types';
import type {
  ClaimDocument,
  DomainClaimDocument,
  VerdictHintResultDocument,
} from '../storage/sampler-documents';
import { claimStateAt, type TakenClaim } from './claim-book';

type Schemas = components['schemas'];

/** The wire shapes of the export boundary, from the stored documents. */

export function exportedDomainOf(row: DomainClaimDocument): Schemas['ExportedDomain'] {
  return {
    domain: row.domain,
    min_interval_ms: row.min_interval_ms,
    robots_txt: row.robots_txt,
    undetermined_reason: row.undetermined_reason,
    exported_at: row.exported_at,
  };
}

export function claimResponseOf(taken: TakenClaim): Schemas['DomainClaimResponse'] {
  return {
    claim_id: taken.claim.claim_id,
    consumer_id: taken.claim.consumer_id,
    claim_ttl_seconds: taken.claimTtlSeconds,
    is_claim_ttl_truncated: taken.isClaimTtlTruncated,
    claim_ttl_note: taken.claimTtlNote,
    expires_at: taken.claim.expires_at,
    domain_list: taken.domainRowList.map((row) => ({
      domain: row.domain,
      min_interval_ms: row.min_interval_ms,
      robots_txt: row.robots_txt,
    })),
  };
}

export function claimRowOf(claim: ClaimDocument, nowMs: number): Schemas['DomainClaimRow'] {
  return {
    claim_id: claim.claim_id,
    consumer_id: claim.consumer_id,
    domain_count: claim.domain_list.length,
    claim_ttl_seconds: claim.claim_ttl_seconds,
    expires_at: claim.expires_at,
    reported_count: claim.reported_domain_list.length,
    claim_state: claimStateAt(claim, nowMs),
  };
}

export function hintRowOf(result: VerdictHintResultDocument): Schemas['VerdictHintRow'] {
  return {
    domain: result.domain,
    consumer_id: result.consumer_id,
    verdict: result.verdict,
    undetermined_reason: result.undetermined_reason,
    confidence_score: result.confidence_score,
    hint_decision: result.hint_decision,
    received_at: result.received_at,
  };
}

/** Domains held right now by live claims: each live claim's domains not yet handed back. */
export function claimedDomainCountOf(claims: readonly ClaimDocument[], nowMs: number): number {
  return claims
    .filter((claim) => claimStateAt(claim, nowMs) === 'active')
    .reduce(
      (total, claim) => total + claim.domain_list.length - claim.reported_domain_list.length,
      0,
    );
}
