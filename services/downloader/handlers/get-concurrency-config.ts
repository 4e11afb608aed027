import type { DownloaderHandlers } from '../../../generated/downloader';
import type { DownloaderContext } from '../context';

/** GET /v1/operator/concurrency-config — Read max_concurrent_count, the global cost brake. */
export function createGetConcurrencyConfigHandler(
  context: DownloaderContext,
): DownloaderHandlers['getConcurrencyConfig'] {
  return async () => context.core.concurrency;
}
