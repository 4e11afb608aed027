import type { SamplerHandlers } from '../../../generated/sampler';
import type { SamplerContext } from '../context';
import { atTheEdge } from './edge-errors';

/** GET /v1/exported-domains — Domains the sampler could not decide, offered to external consumers. */
export function createListExportedDomainsHandler(
  context: SamplerContext,
): SamplerHandlers['listExportedDomains'] {
  return async ({ query }) => atTheEdge(() => context.core.listExportedDomains(query.limit));
}
