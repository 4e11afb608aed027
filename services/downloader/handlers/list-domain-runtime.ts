import type { DownloaderHandlers } from '../../../generated/downloader';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { DownloaderContext } from '../context';

/** GET /v1/operator/domain-runtime — The per-domain rate-limit rows, totals and per-entry over-limit counts. */
export function createListDomainRuntimeHandler(
  _context: DownloaderContext,
): DownloaderHandlers['listDomainRuntime'] {
  return async () => {
    throw notImplemented('listDomainRuntime');
  };
}
