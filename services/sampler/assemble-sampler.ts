import type { ContractMetrics } from '../common/contract-runtime/contract-metrics';
import { countUnknownAnswerFields } from '../common/contract-runtime/unknown-answer-fields';
import { downloaderContract, schedulerContract } from '../common/peers/peer-contracts';
import { join } from 'node:path';
import { DownloaderClient } from '../../generated/downloader';
import { SchedulerClient, type components as SchedulerComponents } from '../../generated/scheduler';
import { createSamplerRouter } from '../../generated/sampler';
import openApiDocument from '../../generated/sampler/openapi.json';
import type { ServiceDefinition } from '../common/service-host/run-service';
import {
  openStorageBackend,
  storageBackendSettingsFromEnvironment,
} from '../common/storage/open-storage-backend';
import { openServiceKeyspace } from '../common/storage/service-keyspace';
import type { ConsumerTokenBook } from './consumers/consumer-token-book';
import { createSamplerAuthenticator } from './consumers/sampler-authenticator';
import { DownloaderPageFetcher } from './downloader-edge/downloader-page-fetcher';
import { createSamplerHandlers } from './handlers';
import { addOperatorPageRoutes } from './operator-page/operator-page-routes';
import type { ListCandidates } from './queue/sampling-loop';
import type { SubmitRules } from './rules/rule-poster';
import { systemClock, type Clock } from './sampler-clock';
import { SamplerCore } from './sampler-core';
import { SAMPLER_SETTINGS, type SamplerSettingValues } from './sampler-settings';
import type { DomainSampler } from './sampling/domain-sampler';
import { SamplingProcedure } from './sampling/sampling-procedure';

type DomainRuleVariant = SchedulerComponents['schemas']['DomainRule'];

/** What tests may replace; production uses the defaults. */
export interface SamplerDependencies {
  clock?: Clock;
  /** The sampling procedure (tests pass a scripted one); default: the real procedure. */
  domainSampler?: DomainSampler;
  /** Receives the core once assembled (tests drive the sweeper and the loop directly). */
  onCoreReady?: (core: SamplerCore) => void;
}

/**
 * The sampler as the service host runs it: its flags, its storage (LMDB under `<data dir>/sampler`,
 * or TiKV with STORAGE_BACKEND=tikv), the authenticator that also admits consumer tokens, the core
 * (books opened, an interrupted write repaired) before the port opens, the contract router, the
 * operator page, and the background work (sampling loop, rule poster, claim sweeper) once it listens.
 */
export function samplerServiceDefinition(
  environmentVariables: NodeJS.ProcessEnv,
  dependencies: SamplerDependencies = {},
): ServiceDefinition<typeof SAMPLER_SETTINGS> {
  // Requests arrive only once the port listens, after `assemble` has opened the token book.
  let consumerTokens: ConsumerTokenBook | undefined;
  return {
    serviceName: 'sampler',
    apiDocument: openApiDocument,
    settingDefinitions: SAMPLER_SETTINGS,
    createAuthenticator: ({ config }) =>
      createSamplerAuthenticator(config.token, async (token) =>
        consumerTokens === undefined ? null : consumerTokens.authenticate(token),
      ),
    assemble: async ({ config, settings, logger, registry, routerOptions }) => {
      const backend = await openStorageBackend(
        storageBackendSettingsFromEnvironment('sampler', {
          ...environmentVariables,
          // One directory per service under --data-dir (README), whatever else the variables say.
          STORAGE_DATA_DIRECTORY: join(config.dataDirectory, 'sampler'),
        }),
      );
      const downloader = downloaderClientOf(settings, routerOptions.metrics);
      let core: SamplerCore;
      try {
        core = await SamplerCore.open({
          keyspace: openServiceKeyspace('sampler', backend),
          clock: dependencies.clock ?? systemClock,
          logger,
          registry,
          settings,
          domainSampler: dependencies.domainSampler ?? defaultDomainSampler(settings, downloader),
          pageRenderer: downloader,
          ...schedulerEdgesOf(settings, routerOptions.metrics),
        });
      } catch (error) {
        await backend.close();
        throw error;
      }
      consumerTokens = core.consumerTokens;
      dependencies.onCoreReady?.(core);
      return {
        contractRouter: createSamplerRouter(
          createSamplerHandlers({ config, logger, core }),
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

/** The scheduler's two edges the sampler uses, through the generated client (one try each). */
function schedulerEdgesOf(
  settings: SamplerSettingValues,
  metrics: ContractMetrics,
): {
  listCandidates?: ListCandidates;
  submitRules?: SubmitRules;
} {
  if (settings.schedulerToken === undefined) return {};
  const client = new SchedulerClient({
    baseUrl: settings.schedulerUrl,
    token: settings.schedulerToken,
    // The loop and the poster have their own schedules; the client tries once.
    maximumAttemptCount: 1,
    timeoutMs: 30_000,
    userAgent: 'render-crawler-sampler',
    onAnswer: countUnknownAnswerFields(schedulerContract, metrics),
  });
  return {
    listCandidates: async (limit, signal) =>
      (await client.listDomainCandidates({ limit }, { signal })).domain_list,
    // The rule book keeps each rule's verdict/undetermined_reason pairing (the schema's variants);
    // the generated type states that pairing as a union the flat document cannot show.
    submitRules: (ruleList, signal) =>
      client.submitRules({ rule_list: ruleList as DomainRuleVariant[] }, { signal }),
  };
}

/**
 * The downloader's client, shared by the sampling procedure and the API hint verification (every
 * request the sampler makes to a site goes through its POST /v1/render); none without a token.
 */
function downloaderClientOf(
  settings: SamplerSettingValues,
  metrics: ContractMetrics,
): DownloaderClient | undefined {
  if (settings.downloaderToken === undefined) return undefined;
  return new DownloaderClient({
    baseUrl: settings.downloaderUrl,
    token: settings.downloaderToken,
    // The procedure paces, honours 429s and decides what a failure means; the client tries once.
    maximumAttemptCount: 1,
    userAgent: 'render-crawler-sampler',
    onAnswer: countUnknownAnswerFields(downloaderContract, metrics),
  });
}

/** The real sampling procedure, through the downloader's POST /v1/render; none without a token. */
function defaultDomainSampler(
  settings: SamplerSettingValues,
  downloader: DownloaderClient | undefined,
): DomainSampler | undefined {
  if (downloader === undefined) return undefined;
  // No policy file: the procedure's own calibrated defaults.
  return new SamplingProcedure({
    downloader: new DownloaderPageFetcher(downloader),
    policy: settings.samplingPolicy,
  });
}
