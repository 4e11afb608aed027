import type { DownloaderHandlers } from '../../../generated/downloader';
import type { DownloaderContext } from '../context';

/** PUT /v1/operator/concurrency-config — Change max_concurrent_count online; takes effect without restart. */
export function createUpdateConcurrencyConfigHandler(
  context: DownloaderContext,
): DownloaderHandlers['updateConcurrencyConfig'] {
  return async ({ body }) => context.core.updateMaxConcurrentCount(body.max_concurrent_count);
}
