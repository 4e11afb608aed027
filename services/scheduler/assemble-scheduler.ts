import type { ContractMetrics } from '../common/contract-runtime/contract-metrics';
import type {
  ContractRequestHandler,
  ContractRouterOptions,
  OperationInvoker,
} from '../common/contract-runtime/contract-router';
import { countUnknownAnswerFields } from '../common/contract-runtime/unknown-answer-fields';
import { downloaderContract } from '../common/peers/peer-contracts';
import { join } from 'node:path';
import { DownloaderClient } from '../../generated/downloader/client';
import type { SchedulerHandlers } from '../../generated/scheduler/handlers';
import openApiDocument from '../../generated/scheduler/openapi.json';
import { keepBackgroundThreadsDeprioritized } from '../common/process/background-thread-priority';
import type { ServedContract, ServiceDefinition } from '../common/service-host/run-service';
import { storageBackendSettingsFromEnvironment } from '../common/storage/open-storage-backend';
import type { OrderedKeyValueBackend } from '../common/storage/ordered-key-value-backend';
import { openServiceKeyspace } from '../common/storage/service-keyspace';
import { WriteBehindLmdbBackend } from '../common/storage/write-behind/write-behind-lmdb-backend';
import { registerWriteBehindMetrics } from '../common/storage/write-behind/write-behind-metrics';
import { systemClock, type Clock } from './frontier/clock';
import { commitModeOf } from './frontier/commit-queue';
import { Frontier } from './frontier/frontier';
import { registerResidentUrlTaskMetrics } from './frontier/resident/resident-url-task-metrics';
import {
  frontierUrlTablesOf,
  residentUrlTasksModeFromEnvironment,
  openSchedulerStorage,
  writingBehindUnlessTold,
} from './open-scheduler-storage';
import type { ProbeCall } from './health/domain-prober';
import { createSchedulerHandlers } from './handlers';
import { knownUrlTableMessage } from './frontier/link-preparation-protocol';
import { addOperatorPageRoutes } from './operator-page/operator-page-routes';
import {
  frontierSettingsOf,
  SCHEDULER_SETTINGS,
  type SchedulerSettingValues,
} from './scheduler-settings';

const HTTP_EDGE_SURFACE = join(__dirname, 'scheduler-http-edge');

/** What tests may replace; production uses the defaults. */
export interface SchedulerDependencies {
  clock?: Clock;
  /** Wraps the opened storage backend (tests inject write failures). */
  wrapBackend?: (backend: OrderedKeyValueBackend) => OrderedKeyValueBackend;
}

/**
 * The scheduler as the service host runs it: its flags, its storage (LMDB under
 * `<data dir>/scheduler`, or TiKV with STORAGE_BACKEND=tikv), the frontier rebuilt from storage
 * before the port opens, the contract router, the operator page, and the background loops.
 */
export function schedulerServiceDefinition(
  environmentVariables: NodeJS.ProcessEnv,
  dependencies: SchedulerDependencies = {},
): ServiceDefinition<typeof SCHEDULER_SETTINGS> {
  return {
    serviceName: 'scheduler',
    apiDocument: openApiDocument,
    settingDefinitions: SCHEDULER_SETTINGS,
    assemble: async ({ config, settings: values, logger, registry, routerOptions }) => {
      const storage = await openSchedulerStorage(
        writingBehindUnlessTold(
          storageBackendSettingsFromEnvironment('scheduler', {
            ...environmentVariables,
            // One directory per service under --data-dir (README), whatever else the variables say.
            STORAGE_DATA_DIRECTORY: join(config.dataDirectory, 'scheduler'),
          }),
        ),
        residentUrlTasksModeFromEnvironment(environmentVariables),
        logger,
      );
      const openedBackend = storage.backend;
      if (storage.migratedUrlTaskCount > 0) {
        logger.info(
          { url_count: storage.migratedUrlTaskCount },
          'url_task moved from LMDB into memory (resident snapshot written)',
        );
      }
      if (openedBackend instanceof WriteBehindLmdbBackend) {
        registerWriteBehindMetrics(registry, openedBackend);
      }
      if (storage.residentUrlTasks !== undefined) {
        registerResidentUrlTaskMetrics(registry, storage.residentUrlTasks);
      }
      const backend = dependencies.wrapBackend?.(openedBackend) ?? openedBackend;
      let stopDeprioritizing: () => void = () => undefined;
      let frontier: Frontier;
      try {
        const keyspace = openServiceKeyspace('scheduler', backend);
        frontier = await Frontier.open({
          keyspace,
          ...frontierUrlTablesOf(keyspace, storage),
          clock: dependencies.clock ?? systemClock,
          settings: frontierSettingsOf(values),
          logger,
          registry,
          probe: probeCallOf(values, routerOptions.metrics),
          commitMode: commitModeOf(backend),
        });
      } catch (error) {
        await storage.close();
        throw error;
      }
      const handlers = createSchedulerHandlers({ config, logger, frontier });
      const stop = async () => {
        stopDeprioritizing();
        await frontier.stop();
        await storage.close();
      };
      let servedContract: ServedContract;
      try {
        servedContract = values.isHttpThreaded
          ? {
              httpEdge: {
                surfaceModule: HTTP_EDGE_SURFACE,
                // The generated handler interface, keyed by operationId as the thread forwards.
                invokers: handlers as unknown as Readonly<Record<string, OperationInvoker>>,
                // The surface prepares reports' links against the frontier's known URLs.
                shareWithThread: (post) =>
                  frontier.watchKnownUrlTables((table) => post(knownUrlTableMessage(table))),
              },
            }
          : { contractRouter: await eventLoopRouter(handlers, routerOptions) };
      } catch (error) {
        // The frontier's threads (link preparation) would keep the process alive, its storage open.
        await stop();
        throw error;
      }
      return {
        ...servedContract,
        // The same pages whichever thread serves HTTP (scheduler-http-edge.ts adds them there).
        addExtraRoutes: addOperatorPageRoutes,
        start: async () => {
          frontier.startBackgroundWork();
          if (values.backgroundThreadNiceness > 0) {
            stopDeprioritizing = keepBackgroundThreadsDeprioritized(
              values.backgroundThreadNiceness,
            );
          }
        },
        // A frontier that refuses writes until restarted is not healthy: let a supervisor see it.
        isHealthy: () => frontier.isWritable,
        stop,
      };
    },
  };
}

/**
 * The contract router for `--http-thread off`. Loaded only then: with the HTTP thread on, the
 * main thread needs nothing of the router's modules (its request checks, Express's body parsing),
 * which would lengthen its start-up. (ajv itself stays: the prober's client checks the
 * downloader's answers for unknown fields.)
 */
async function eventLoopRouter(
  handlers: SchedulerHandlers,
  routerOptions: ContractRouterOptions,
): Promise<ContractRequestHandler> {
  const { createSchedulerRouter } = await import('../../generated/scheduler/router');
  return createSchedulerRouter(handlers, routerOptions);
}

/** Probes go through the generated downloader client; without a token there is no prober. */
function probeCallOf(
  values: SchedulerSettingValues,
  metrics: ContractMetrics,
): ProbeCall | undefined {
  if (values.downloaderUrl === undefined || values.downloaderToken === undefined) return undefined;
  const client = new DownloaderClient({
    baseUrl: values.downloaderUrl,
    token: values.downloaderToken,
    // Our own schedule retries (without counting the probe); the client tries once.
    maximumAttemptCount: 1,
    timeoutMs: values.probeTimeoutMs + 5000,
    userAgent: 'render-crawler-scheduler',
    onAnswer: countUnknownAnswerFields(downloaderContract, metrics),
  });
  return (request, signal) => client.probeUrl(request, { signal });
}
