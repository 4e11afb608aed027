import type { DownloaderHandlers } from '../../../generated/downloader';
import { notFound } from '../../common/contract-runtime/contract-error';
import type { DownloaderContext } from '../context';

/** GET /v1/objects/{object_id} — Fetch a stored web page object. */
export function createGetWebPageObjectHandler(
  context: DownloaderContext,
): DownloaderHandlers['getWebPageObject'] {
  return async ({ path }) => {
    const object = await context.core.objects.get(path.object_id);
    if (object === undefined) {
      throw notFound(
        'object_not_found',
        `no web page object ${path.object_id} (never stored, or expired)`,
      );
    }
    return object;
  };
}
