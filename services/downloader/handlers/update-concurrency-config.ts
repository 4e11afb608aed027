import type { DownloaderHandlers } from '../../../generated/downloader';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { DownloaderContext } from '../context';

/** PUT /v1/operator/concurrency-config — Change max_concurrent_count online; takes effect without restart. */
export function createUpdateConcurrencyConfigHandler(
  _context: DownloaderContext,
): DownloaderHandlers['updateConcurrencyConfig'] {
  return async () => {
    throw notImplemented('updateConcurrencyConfig');
  };
}
