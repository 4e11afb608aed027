import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import type { ServiceKeyspace } from '../../common/storage/service-keyspace';
import type {
  ApiEndpointHintTaskDocument,
  ClaimDocument,
  ConsumerTokenDocument,
  DomainClaimDocument,
  DomainRuleDocument,
  RuleOutboxDocument,
  SampleDueIndexDocument,
  SampleTaskDocument,
  VerdictHintIndexDocument,
  VerdictHintResultDocument,
} from './sampler-documents';

/** Every table of the sampler's keyspace (CONTRACT.md §五), typed by the document it holds. */
export interface SamplerTables {
  rules: KeyspaceTable<DomainRuleDocument>;
  ruleOutbox: KeyspaceTable<RuleOutboxDocument>;
  sampleTasks: KeyspaceTable<SampleTaskDocument>;
  sampleDueIndex: KeyspaceTable<SampleDueIndexDocument>;
  domainClaims: KeyspaceTable<DomainClaimDocument>;
  claims: KeyspaceTable<ClaimDocument>;
  consumerTokens: KeyspaceTable<ConsumerTokenDocument>;
  hintResults: KeyspaceTable<VerdictHintResultDocument>;
  hintIndex: KeyspaceTable<VerdictHintIndexDocument>;
  apiEndpointHints: KeyspaceTable<ApiEndpointHintTaskDocument>;
}

export function openSamplerTables(keyspace: ServiceKeyspace): SamplerTables {
  return {
    rules: keyspace.table<DomainRuleDocument>('domain_rule'),
    ruleOutbox: keyspace.table<RuleOutboxDocument>('rule_outbox_task'),
    sampleTasks: keyspace.table<SampleTaskDocument>('domain_sample_task'),
    sampleDueIndex: keyspace.table<SampleDueIndexDocument>('sample_due_index'),
    domainClaims: keyspace.table<DomainClaimDocument>('domain_claim_task'),
    claims: keyspace.table<ClaimDocument>('claim_task'),
    consumerTokens: keyspace.table<ConsumerTokenDocument>('consumer_token'),
    hintResults: keyspace.table<VerdictHintResultDocument>('verdict_hint_result'),
    hintIndex: keyspace.table<VerdictHintIndexDocument>('verdict_hint_index'),
    apiEndpointHints: keyspace.table<ApiEndpointHintTaskDocument>('api_endpoint_hint_task'),
  };
}
