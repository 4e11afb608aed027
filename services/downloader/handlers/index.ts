import type { DownloaderHandlers } from '../../../generated/downloader';
import type { DownloaderContext } from '../context';
import { createRenderPageHandler } from './render-page';
import { createProbeUrlHandler } from './probe-url';
import { createGetWebPageObjectHandler } from './get-web-page-object';
import { createGetConcurrencyConfigHandler } from './get-concurrency-config';
import { createUpdateConcurrencyConfigHandler } from './update-concurrency-config';
import { createListDomainRuntimeHandler } from './list-domain-runtime';
import { createGetPagePoolHandler } from './get-page-pool';

/** Wires one handler per contract operation; tsc names any operation missing here. */
export function createDownloaderHandlers(context: DownloaderContext): DownloaderHandlers {
  return {
    renderPage: createRenderPageHandler(context),
    probeUrl: createProbeUrlHandler(context),
    getWebPageObject: createGetWebPageObjectHandler(context),
    getConcurrencyConfig: createGetConcurrencyConfigHandler(context),
    updateConcurrencyConfig: createUpdateConcurrencyConfigHandler(context),
    listDomainRuntime: createListDomainRuntimeHandler(context),
    getPagePool: createGetPagePoolHandler(context),
  };
}
