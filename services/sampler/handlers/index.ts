import type { SamplerHandlers } from '../../../generated/sampler';
import type { SamplerContext } from '../context';
import { createListExportedDomainsHandler } from './list-exported-domains';
import { createClaimDomainsHandler } from './claim-domains';
import { createSubmitVerdictHintsHandler } from './submit-verdict-hints';
import { createListConsumerTokensHandler } from './list-consumer-tokens';
import { createIssueConsumerTokenHandler } from './issue-consumer-token';
import { createRevokeConsumerTokenHandler } from './revoke-consumer-token';
import { createListDomainClaimsHandler } from './list-domain-claims';
import { createGetSamplingQueueHandler } from './get-sampling-queue';
import { createSubmitApiEndpointHintsHandler } from './submit-api-endpoint-hints';

/** Wires one handler per contract operation; tsc names any operation missing here. */
export function createSamplerHandlers(context: SamplerContext): SamplerHandlers {
  return {
    listExportedDomains: createListExportedDomainsHandler(context),
    claimDomains: createClaimDomainsHandler(context),
    submitVerdictHints: createSubmitVerdictHintsHandler(context),
    listConsumerTokens: createListConsumerTokensHandler(context),
    issueConsumerToken: createIssueConsumerTokenHandler(context),
    revokeConsumerToken: createRevokeConsumerTokenHandler(context),
    listDomainClaims: createListDomainClaimsHandler(context),
    getSamplingQueue: createGetSamplingQueueHandler(context),
    submitApiEndpointHints: createSubmitApiEndpointHintsHandler(context),
  };
}
