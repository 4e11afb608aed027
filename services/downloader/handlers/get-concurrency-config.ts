import type { DownloaderHandlers } from '../../../generated/downloader';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { DownloaderContext } from '../context';

/** GET /v1/operator/concurrency-config — Read max_concurrent_count, the global cost brake. */
export function createGetConcurrencyConfigHandler(
  _context: DownloaderContext,
): DownloaderHandlers['getConcurrencyConfig'] {
  return async () => {
    throw notImplemented('getConcurrencyConfig');
  };
}
