import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import pino from 'pino';
import { readSettings } from '../../common/config/settings';
import { openStorageBackend } from '../../common/storage/open-storage-backend';
import { openServiceKeyspace } from '../../common/storage/service-keyspace';
import type { ListCandidates } from '../queue/sampling-loop';
import type { SubmitRules } from '../rules/rule-poster';
import { SamplerCore } from '../sampler-core';
import { SAMPLER_SETTINGS, type SamplerSettingValues } from '../sampler-settings';
import type { DomainSampler } from '../sampling/domain-sampler';
import type { PageRenderer } from '../sampling/downloader-requests';
import { ManualClock } from './manual-clock';

export interface TestCore {
  core: SamplerCore;
  clock: ManualClock;
  dataDirectory: string;
  /** Closes the storage; the data is deleted unless kept (restart scenarios). */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface TestCoreOptions {
  clock?: ManualClock;
  domainSampler?: DomainSampler;
  submitRules?: SubmitRules;
  listCandidates?: ListCandidates;
  /** The downloader's POST /v1/render, for verifying API endpoint hints. */
  pageRenderer?: PageRenderer;
  settings?: Partial<SamplerSettingValues>;
  dataDirectory?: string;
}

/**
 * The sampler's core on real LMDB in a temporary directory, with a manual clock and no HTTP: for
 * the claim, hint and backoff logic. Background work is not started; tests drive it.
 */
export async function openTestCore(options: TestCoreOptions = {}): Promise<TestCore> {
  const dataDirectory = options.dataDirectory ?? mkdtempSync(join(tmpdir(), 'sampler-core-'));
  const backend = await openStorageBackend({ backendName: 'lmdb', dataDirectory });
  const clock = options.clock ?? new ManualClock();
  const core = await SamplerCore.open({
    keyspace: openServiceKeyspace('sampler', backend),
    clock,
    logger: pino({ level: 'silent' }),
    registry: new Registry(),
    settings: { ...readSettings(SAMPLER_SETTINGS, {}, {}), ...options.settings },
    domainSampler: options.domainSampler,
    submitRules: options.submitRules,
    listCandidates: options.listCandidates,
    pageRenderer: options.pageRenderer,
  });
  return {
    core,
    clock,
    dataDirectory,
    close: async ({ keepData = false } = {}) => {
      await core.stop();
      await backend.close();
      if (!keepData) rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}
