import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { TokenAuthenticator } from '../contract-runtime/caller-identity';
import { ContractMetrics } from '../contract-runtime/contract-metrics';
import type {
  ContractRequestHandler,
  ContractRouterOptions,
  OperationInvoker,
} from '../contract-runtime/contract-router';
import { parseServiceConfig, type ServiceConfig } from '../config/service-config';
import type { SettingDefinitions, SettingValues } from '../config/settings';
import type { ServiceName } from '../storage/service-name';
import { createLogger } from '../logging/create-logger';
import type { ServiceSurfaceOptions } from './create-service-request-listener';
import { startHttpEdge } from './http-edge';
import { listenOn } from './listen-on';
import { createServiceTokenAuthenticator } from './service-token-authenticator';
import { serverListener, type ServiceListener } from './service-listener';

/** What the process gives a service while assembling it. */
export interface ServiceEnvironment<Definitions extends SettingDefinitions = SettingDefinitions> {
  config: ServiceConfig;
  /** The service's own settings, read from its `settingDefinitions` (flag > variable > default). */
  settings: SettingValues<Definitions>;
  logger: Logger;
  registry: Registry;
  /** Ready-made options for the generated router; a service may replace `authenticate`. */
  routerOptions: ContractRouterOptions;
}

/** Where a service's contract is served: on the event loop, or on an HTTP thread (http-edge.ts). */
export type ServedContract =
  | {
      /** The generated contract router, served on the event loop. */
      contractRouter: ContractRequestHandler;
      httpEdge?: undefined;
    }
  | {
      contractRouter?: undefined;
      /**
       * Serve HTTP on a thread of its own: the module exporting the thread's `httpEdgeSurface`,
       * and the handlers its operations are forwarded to. The thread builds the contract router
       * (and checks the contract at its start); the event loop builds none. The thread serves its
       * surface's API document and extra routes (`addExtraRoutes` is for the event loop's app).
       */
      httpEdge: {
        surfaceModule: string;
        invokers: Readonly<Record<string, OperationInvoker>>;
        /** Called once the thread listens: `post` sends its surface a message (`receive`). */
        shareWithThread?: (post: (message: unknown) => void) => void;
      };
    };

/** What a service hands back: its contract, optional pages, and its lifecycle. */
export type ServiceAssembly = ServedContract & {
  addExtraRoutes?: (app: Express) => void;
  /** Starts background work (loops, sweepers) once the HTTP server listens. */
  start?: () => Promise<void>;
  /** Stops background work and releases storage; called once on shutdown. */
  stop?: () => Promise<void>;
  /** False once the service cannot do its work any more (/healthz then answers 503). */
  isHealthy?: () => boolean;
};

export interface ServiceDefinition<Definitions extends SettingDefinitions = SettingDefinitions> {
  serviceName: ServiceName;
  apiDocument: { info: { title: string } };
  /** The service's own flags and variables, listed by --help next to the common ones. */
  settingDefinitions: Definitions;
  /** Replaces the default service-token check (the sampler also admits consumer tokens). */
  createAuthenticator?: (environment: ServiceEnvironment<Definitions>) => TokenAuthenticator;
  assemble: (environment: ServiceEnvironment<Definitions>) => Promise<ServiceAssembly>;
}

export interface RunningService {
  url: string;
  /** Cuts every open connection, requests in flight included (tests that stop at once). */
  closeAllConnections: () => void;
  shutdown: (reason: string) => Promise<void>;
}

const shutdownBudgetMs = 15_000;

/**
 * Runs one service as its own process: configuration, logging, metrics, the HTTP server, and a
 * graceful shutdown on SIGINT/SIGTERM (stop accepting, finish in-flight requests, stop background
 * work, close storage) bounded by a budget so a stuck dependency cannot keep the process alive.
 */
export async function runService<Definitions extends SettingDefinitions>(
  definition: ServiceDefinition<Definitions>,
  argv: string[] = process.argv,
  environmentVariables: NodeJS.ProcessEnv = process.env,
): Promise<RunningService> {
  const { config, settings } = parseServiceConfig(
    definition.serviceName,
    argv,
    environmentVariables,
    definition.settingDefinitions,
  );
  const logger = createLogger(definition.serviceName);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: `${definition.serviceName}_` });
  const routerOptions: ContractRouterOptions = {
    serviceName: definition.serviceName,
    authenticate: createServiceTokenAuthenticator(config.token),
    logger,
    metrics: new ContractMetrics(registry, definition.serviceName),
    shouldValidateResponses: config.shouldValidateResponses,
  };
  const environment: ServiceEnvironment<Definitions> = {
    config,
    settings,
    logger,
    registry,
    routerOptions,
  };
  if (definition.createAuthenticator) {
    routerOptions.authenticate = definition.createAuthenticator(environment);
  }

  const assembly = await definition.assemble(environment);
  if (assembly.httpEdge && definition.createAuthenticator) {
    // The thread admits the service's token alone; a service with its own authenticator (the
    // sampler's consumer tokens) would have its other callers refused there.
    await assembly.stop?.();
    throw new Error(`${definition.serviceName}: an HTTP thread cannot use its own authenticator`);
  }
  let isReady = false;
  const startedAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const isServing = () => isReady && (assembly.isHealthy?.() ?? true);
  // Assigned below. Should the HTTP thread fail before (during `start`), the process exits without
  // the graceful stop, as after a crash: what was acknowledged is in the journal already.
  let shutdown: (reason: string) => Promise<void> = async () => undefined;
  const listener = await stopAssemblyIfFailed(assembly, () =>
    assembly.httpEdge
      ? startHttpEdge({
          data: {
            serviceName: definition.serviceName,
            surfaceModule: assembly.httpEdge.surfaceModule,
            host: config.host,
            port: config.port,
            token: config.token,
            shouldValidateResponses: config.shouldValidateResponses,
            logLevel: logger.level,
            startedAt,
          },
          invokers: assembly.httpEdge.invokers,
          shareWithThread: assembly.httpEdge.shareWithThread,
          logger,
          registry,
          isReady: isServing,
          onFailure: (error) => {
            logger.error({ err: error }, 'the HTTP thread failed; stopping');
            void shutdown('HTTP thread failed').then(
              () => process.exit(1),
              (stopError: unknown) => {
                logger.error({ err: stopError, reason: 'HTTP thread failed' }, 'shutdown failed');
                process.exit(1);
              },
            );
          },
        })
      : listenInProcess(
          {
            serviceName: definition.serviceName,
            logger,
            registry,
            contractRouter: assembly.contractRouter,
            apiDocument: definition.apiDocument,
            startedAt,
            isReady: isServing,
            addExtraRoutes: assembly.addExtraRoutes,
          },
          config.host,
          config.port,
        ),
  );
  const url = listener.url;
  await stopAssemblyIfFailed(assembly, async () => assembly.start?.(), listener);
  isReady = true;

  let shutdownPromise: Promise<void> | undefined;
  shutdown = (reason: string): Promise<void> => {
    shutdownPromise ??= (async () => {
      isReady = false;
      logger.info({ reason }, 'shutting down');
      const budget = setTimeout(() => {
        logger.error({ budget_ms: shutdownBudgetMs }, 'shutdown budget exceeded; exiting');
        process.exit(1);
      }, shutdownBudgetMs);
      budget.unref();
      const listenerClosed = listener.close();
      await assembly.stop?.();
      await listenerClosed;
      clearTimeout(budget);
      logger.info('stopped');
    })();
    return shutdownPromise;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void shutdown(signal).then(
        () => process.exit(0),
        // Said in the log, not left to Node's unhandled-rejection report on stderr.
        (error: unknown) => {
          logger.error({ err: error, reason: signal }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  // Only now: supervisors and tests take this line as ready, and a SIGINT sent before the handlers
  // above were installed would kill the process at once (the signal's default action).
  logger.info(
    {
      url,
      docs_url: `${url}/docs`,
      data_directory: config.dataDirectory,
      is_http_threaded: assembly.httpEdge !== undefined,
      http_thread_id: listener.httpThreadId,
    },
    'service listening',
  );
  return { url, closeAllConnections: () => listener.closeAllConnections(), shutdown };
}

async function listenInProcess(
  surface: ServiceSurfaceOptions,
  host: string,
  port: number,
): Promise<ServiceListener> {
  // Loaded here: a service whose HTTP thread serves its surface needs none of Express on its main
  // thread, whose start-up it would lengthen by ~50–80 ms.
  const { createServiceRequestListener } = await import('./create-service-request-listener');
  const server = await listenOn(createServiceRequestListener(surface), host, port);
  const address = server.address() as AddressInfo;
  return serverListener(server, `http://${host}:${address.port}`);
}

/**
 * Runs a step of the start that comes after the assembly (listening, the service's own start) and,
 * should it fail, closes what listens already and stops the assembly before passing the error on:
 * a port in use must not leave the storage the assembly opened unclosed (its journal unflushed,
 * its lock held by a process that goes on, as a test's does).
 */
async function stopAssemblyIfFailed<T>(
  assembly: ServiceAssembly,
  step: () => Promise<T>,
  listener?: ServiceListener,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await listener?.close();
    await assembly.stop?.();
    throw error;
  }
}
