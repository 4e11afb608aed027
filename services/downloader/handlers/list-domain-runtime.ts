import type { DownloaderHandlers } from '../../../generated/downloader';
import type { DownloaderContext } from '../context';
import { buildDomainRuntimeView } from '../rate-limit/domain-runtime-view';

/** GET /v1/operator/domain-runtime — The per-domain rate-limit rows, totals and per-entry over-limit counts. */
export function createListDomainRuntimeHandler(
  context: DownloaderContext,
): DownloaderHandlers['listDomainRuntime'] {
  return async ({ query }) => buildDomainRuntimeView(context.core.controller, query);
}
