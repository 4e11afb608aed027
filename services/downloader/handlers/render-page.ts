import type { DownloaderHandlers } from '../../../generated/downloader';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { DownloaderContext } from '../context';

/** POST /v1/render — Render (or plainly fetch) one URL now and answer the web page object. */
export function createRenderPageHandler(
  _context: DownloaderContext,
): DownloaderHandlers['renderPage'] {
  return async () => {
    throw notImplemented('renderPage');
  };
}
