import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SamplerClient } from '../../../generated/sampler';
import type { RunningService } from '../../common/service-host/run-service';
import type { SamplerDependencies } from '../assemble-sampler';
import { startSampler } from '../main';
import type { SamplerCore } from '../sampler-core';

export const TEST_SAMPLER_TOKEN = 'sampler-test-token-0123456789';

export interface TestSampler {
  url: string;
  /** The generated client with the sampler's service token (operator endpoints). */
  client: SamplerClient;
  /** The generated client with a consumer token (export endpoints). */
  consumerClient(token: string): SamplerClient;
  core: SamplerCore;
  dataDirectory: string;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export interface TestSamplerOptions extends Omit<SamplerDependencies, 'onCoreReady'> {
  /** Extra flags, e.g. ['--scheduler-url', url, '--scheduler-token', token]. */
  flags?: string[];
  environment?: NodeJS.ProcessEnv;
  dataDirectory?: string;
}

// Every in-process start registers SIGINT/SIGTERM listeners; a test file starts several.
process.setMaxListeners(100);
process.env.LOG_LEVEL ??= 'silent';

/**
 * The real sampler (the same assembly as main.ts) on 127.0.0.1 with an ephemeral port, a fresh
 * LMDB directory and response validation on; the procedure and the clock may be injected.
 */
export async function startTestSampler(options: TestSamplerOptions = {}): Promise<TestSampler> {
  const dataDirectory = options.dataDirectory ?? mkdtempSync(join(tmpdir(), 'sampler-test-'));
  let core: SamplerCore | undefined;
  const running: RunningService = await startSampler(
    [
      'node',
      'sampler',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data-dir',
      dataDirectory,
      '--validate-responses',
      '--queue-tick-interval-ms',
      '50',
      '--candidate-poll-interval-ms',
      '100',
      '--claim-sweep-interval-ms',
      '100',
      ...(options.flags ?? []),
    ],
    { SAMPLER_TOKEN: TEST_SAMPLER_TOKEN, ...options.environment },
    {
      clock: options.clock,
      domainSampler: options.domainSampler,
      onCoreReady: (ready) => (core = ready),
    },
  );
  const clientOf = (token: string) =>
    new SamplerClient({ baseUrl: running.url, token, maximumAttemptCount: 1, timeoutMs: 10_000 });
  return {
    url: running.url,
    client: clientOf(TEST_SAMPLER_TOKEN),
    consumerClient: clientOf,
    core: core as SamplerCore,
    dataDirectory,
    stop: async ({ keepData = false } = {}) => {
      running.closeAllConnections();
      await running.shutdown('test finished');
      if (!keepData) rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}
