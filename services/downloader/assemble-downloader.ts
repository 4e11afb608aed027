import { join } from 'node:path';
import { createDownloaderRouter } from '../../generated/downloader';
import openApiDocument from '../../generated/downloader/openapi.json';
import type { ServiceDefinition } from '../common/service-host/run-service';
import {
  openStorageBackend,
  storageBackendSettingsFromEnvironment,
} from '../common/storage/open-storage-backend';
import { openServiceKeyspace } from '../common/storage/service-keyspace';
import { DownloaderCore } from './downloader-core';
import { DOWNLOADER_SETTINGS, downloaderSettingsOf } from './downloader-settings';
import type { HostLookup } from './egress/destination-resolver';
import { createDownloaderHandlers } from './handlers';
import { addOperatorPageRoutes } from './operator-page/operator-page-routes';

/** What tests (and benchmarks) may replace; production uses the defaults. */
export interface DownloaderDependencies {
  /** DNS lookup; tests pass one that never asks a resolver. */
  hostLookup?: HostLookup;
  /** Receives the core once assembled (a benchmark drives its entries directly). */
  onCoreReady?: (core: DownloaderCore) => void;
}

/**
 * The downloader as the service host runs it: its flags, its storage (LMDB under
 * `<data dir>/downloader`, or TiKV with STORAGE_BACKEND=tikv), the core (rate-limit layer restored
 * from storage, Chromium launched) before the port opens, the contract router, the operator page,
 * and the lease loop once the port listens.
 */
export function downloaderServiceDefinition(
  environmentVariables: NodeJS.ProcessEnv,
  dependencies: DownloaderDependencies = {},
): ServiceDefinition<typeof DOWNLOADER_SETTINGS> {
  return {
    serviceName: 'downloader',
    apiDocument: openApiDocument,
    settingDefinitions: DOWNLOADER_SETTINGS,
    assemble: async ({ config, settings: values, logger, registry, routerOptions }) => {
      const settings = downloaderSettingsOf(values);
      const backend = await openStorageBackend(
        storageBackendSettingsFromEnvironment('downloader', {
          ...environmentVariables,
          // One directory per service under --data-dir (README), whatever else the variables say.
          STORAGE_DATA_DIRECTORY: join(config.dataDirectory, 'downloader'),
        }),
      );
      let core: DownloaderCore;
      try {
        core = await DownloaderCore.open(settings, {
          keyspace: openServiceKeyspace('downloader', backend),
          logger,
          registry,
          contractMetrics: routerOptions.metrics,
          hostLookup: dependencies.hostLookup,
          browserProfileRoot: join(config.dataDirectory, 'downloader', 'browser-profiles'),
        });
      } catch (error) {
        await backend.close();
        throw error;
      }
      dependencies.onCoreReady?.(core);
      return {
        contractRouter: createDownloaderRouter(
          createDownloaderHandlers({ config, logger, core }),
          routerOptions,
        ),
        addExtraRoutes: addOperatorPageRoutes,
        start: async () => core.start(),
        stop: async () => {
          await core.stop();
          await backend.close();
        },
      };
    },
  };
}
