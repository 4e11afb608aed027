import { DestinationPolicy } from '../../../services/downloader/egress/destination-policy';
import { refuseNameLookup } from '../../../services/downloader/egress/egress-test-support';
import { RenderEngine } from '../../../services/downloader/rendering/render-engine';
import {
  CHROMIUM_PATH,
  QUIET_WINDOW_CAP_MS,
  QUIET_WINDOW_MS,
  RECYCLE_AFTER_RENDER_COUNT,
  RENDER_TIMEOUT_MS,
  WAIT_SELECTOR,
} from '../bench-settings';
import { renderUrlStream } from '../page-stream';
import { resultOfWebPage } from '../web-page-result';
import type { RunContender } from './contender-job';

/**
 * The render engine called directly — the fallback row while the downloader service's POST
 * /v1/render is not available: no HTTP, no rate-limit layer, no robots check, no storage.
 * Its egress proxy allow-lists exactly the bench hosts and resolves no name.
 */
export const runRenderEngineDirect: RunContender = async (job, onRecord) => {
  const engine = new RenderEngine({
    destinationPolicy: new DestinationPolicy({ allowedHosts: job.hosts }),
    hostLookup: refuseNameLookup,
    concurrency: job.concurrency,
    recycleAfterRenderCount: RECYCLE_AFTER_RENDER_COUNT,
    quietWindowMs: QUIET_WINDOW_MS,
    quietWindowCapMs: QUIET_WINDOW_CAP_MS,
    executablePath: CHROMIUM_PATH,
  });
  await engine.start();
  try {
    const renderOne = async (url: string) => {
      const outcome = await engine.render({
        url,
        shouldRender: true,
        waitSelector: WAIT_SELECTOR,
        timeoutMs: RENDER_TIMEOUT_MS,
      });
      return {
        result:
          outcome.kind === 'page'
            ? resultOfWebPage(outcome.page)
            : { isSuccess: false as const, failure: `${outcome.kind}: ${JSON.stringify(outcome)}` },
      };
    };
    await renderUrlStream(job.urls, job.concurrency, renderOne, onRecord);
  } finally {
    await engine.stop();
  }
};
