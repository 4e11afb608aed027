import type { DownloaderHandlers } from '../../../generated/downloader';
import type { DownloaderContext } from '../context';

/** POST /v1/render — Render (or plainly fetch) one URL now and answer the web page object (entry B). */
export function createRenderPageHandler(
  context: DownloaderContext,
): DownloaderHandlers['renderPage'] {
  return async ({ body }) => context.core.renderEntry.render(body);
}
