import type { SamplerHandlers } from '../../../generated/sampler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SamplerContext } from '../context';

/** GET /v1/exported-domains — Domains the sampler could not decide, offered to external consumers. */
export function createListExportedDomainsHandler(
  _context: SamplerContext,
): SamplerHandlers['listExportedDomains'] {
  return async () => {
    throw notImplemented('listExportedDomains');
  };
}
