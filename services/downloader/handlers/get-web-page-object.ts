import type { DownloaderHandlers } from '../../../generated/downloader';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { DownloaderContext } from '../context';

/** GET /v1/objects/{object_id} — Fetch a stored web page object. */
export function createGetWebPageObjectHandler(
  _context: DownloaderContext,
): DownloaderHandlers['getWebPageObject'] {
  return async () => {
    throw notImplemented('getWebPageObject');
  };
}
