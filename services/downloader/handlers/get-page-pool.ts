import type { DownloaderHandlers } from '../../../generated/downloader';
import type { DownloaderContext } from '../context';
import { buildPagePoolView } from '../rendering/pool-sizing/page-pool-view';

/** GET /v1/operator/page-pool — The page pool's size, its bounds, why it last changed and what the sizer measured. */
export function createGetPagePoolHandler(
  context: DownloaderContext,
): DownloaderHandlers['getPagePool'] {
  return async () =>
    buildPagePoolView(context.core.engine.statistics(), context.core.engine.poolSizingStatus());
}
