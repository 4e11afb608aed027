import type { components as schedulerComponents } from '../../../generated/scheduler/types';
import type { components } from '../../../generated/sampler/types';

/*
 * The documents of the sampler's keyspace (CONTRACT.md §五). Field names follow CONVENTION.md (the
 * storage layer checks every document before it is written): times end in _at, counts in _count,
 * lists in _list, durations carry their unit.
 */

export type Verdict = components['schemas']['Verdict'];
export type UndeterminedReason = components['schemas']['UndeterminedReason'];
export type HintDecision = components['schemas']['VerdictHintRow']['hint_decision'];
export type ClaimState = components['schemas']['DomainClaimRow']['claim_state'];
type ApiEndpointHintWire = components['schemas']['ApiEndpointHint'];

type DomainRuleVariants = schedulerComponents['schemas']['DomainRule'];
/**
 * The rule exactly as POST /v1/rules carries it, its fields as one flat shape. The generated type is the union of the schema's
 * verdict variants (undetermined_reason exactly when verdict is unknown); the sampler builds a
 * rule field by field and keeps that pairing itself, and the scheduler's router checks it.
 */
export type DomainRuleWire = { [Field in keyof DomainRuleVariants]: DomainRuleVariants[Field] };

/** Who decided a rule: the sampling procedure, or an external consumer's confirmed hint. */
export type RuleOrigin = 'sampling' | 'verdict_hint';

/** `sampler:domain_rule:{domain}` — the rule, the original (the scheduler holds a replica). */
export interface DomainRuleDocument extends DomainRuleWire {
  rule_origin: RuleOrigin;
  /** How sure the decider was (the procedure's own score, or the hint's). */
  confidence_score: number;
}

/** `sampler:rule_outbox_task:{domain}` — written before the rule, cleared on acknowledgement. */
export interface RuleOutboxDocument {
  domain_rule: DomainRuleDocument;
  queued_at: string;
}

/** `sampler:domain_sample_task:{domain}` — when the domain is (re-)sampled next, and its history. */
export interface SampleTaskDocument {
  domain: string;
  due_at: string;
  /** Sampling attempts in a row that ended in an error, not a verdict (retried sooner). */
  attempt_count: number;
  /** Samplings in a row that ended `unknown`: picks the 30 / 90 / 180 day step. */
  undecided_sample_count: number;
  /** URLs the scheduler had seen for the domain (DomainCandidate.sample_url_list). */
  seen_url_list: string[];
  first_queued_at: string;
  /** The last sampling that reached a verdict; null before the first. */
  sampled_at: string | null;
  /**
   * The due time a claim pushed back to its expiry (the domain fell due while held); restored when
   * the claim ends early (a hint, a revocation). Null otherwise.
   */
  deferred_due_at: string | null;
}

/** `sampler:sample_due_index:{due_at}/{domain}` — a pointer; the task's due_at is the truth. */
export type SampleDueIndexDocument = Record<string, never>;

/**
 * `sampler:domain_claim_task:{domain}` — an undecided (exported) domain: what a consumer needs to
 * fetch it politely, and the claim holding it, if any. A row exists exactly while the domain is
 * undecided; the claim fields are null while nobody holds it.
 */
export interface DomainClaimDocument {
  domain: string;
  undetermined_reason: UndeterminedReason;
  min_interval_ms: number;
  robots_txt: string | null;
  exported_at: string;
  claim_id: string | null;
  consumer_id: string | null;
  /** Read-time expiry: past this instant the claim no longer holds, sweeper or not. */
  claim_expires_at: string | null;
}

/** `sampler:claim_task:{claim_id}` — one claim. */
export interface ClaimDocument {
  claim_id: string;
  consumer_id: string;
  claim_ttl_seconds: number;
  requested_claim_ttl_seconds: number;
  claimed_at: string;
  expires_at: string;
  domain_list: string[];
  /** Domains of the claim handed back by a hint. */
  reported_domain_list: string[];
  claim_state: ClaimState;
  /** When it stopped being active (expired, released, revoked); null while active. */
  ended_at: string | null;
}

/** `sampler:consumer_token:{consumer_id}` — only the token's hash is kept. */
export interface ConsumerTokenDocument {
  consumer_id: string;
  /** SHA-256 of the whole bearer token, lowercase hex. */
  token_hash: string;
  issued_at: string;
  revoked_at: string | null;
}

/** `sampler:verdict_hint_result:{claim_id}/{domain}` — a hint and the decision (idempotency key). */
export interface VerdictHintResultDocument {
  claim_id: string;
  domain: string;
  consumer_id: string;
  verdict: Verdict;
  undetermined_reason: UndeterminedReason | null;
  confidence_score: number;
  hint_decision: HintDecision;
  received_at: string;
  /** False between recording the decision and carrying it out; a repeat then finishes the work. */
  is_applied: boolean;
}

/** Where a downloader's API endpoint hint stands: awaiting a check, confirmed, or not confirmed. */
export type ApiHintVerificationState = 'pending' | 'verified' | 'failed';

/**
 * `sampler:api_endpoint_hint_task:{domain}/{endpoint_hash}` — a downloader's hint (the wire fields
 * as received, domain and URLs normalized) and its verification: the outcome of the last check,
 * why, and when the domain's hints are checked next.
 */
export interface ApiEndpointHintTaskDocument extends ApiEndpointHintWire {
  received_at: string;
  verification_state: ApiHintVerificationState;
  /** One line on the last check's outcome (logs, operators); null before the first check. */
  verification_note: string | null;
  checked_at: string | null;
  check_count: number;
  next_check_at: string;
}

/** `sampler:verdict_hint_index:{received_order}/{claim_id}/{domain}` — newest first. */
export interface VerdictHintIndexDocument {
  hint_decision: HintDecision;
  received_at: string;
}
