import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DownloaderClient } from '../../../generated/downloader';
import type { RunningService } from '../../common/service-host/run-service';
import type { DownloaderCore } from '../downloader-core';
import { refuseNameLookup } from '../egress/egress-test-support';
import { startDownloader } from '../main';

export const TEST_DOWNLOADER_TOKEN = 'test-downloader-token-0123456789';

// The service host logs at LOG_LEVEL; tests are quiet unless asked otherwise.
process.env.LOG_LEVEL ??= 'silent';

export interface TestDownloaderOptions {
  /** The loopback addresses the test serves from: exactly those are allowed, nothing wider. */
  readonly allowDestinations: readonly string[];
  /** A fake scheduler to lease from; without it the lease loop is off. */
  readonly scheduler?: { url: string; token: string };
  /** A fake sampler to send API endpoint hints to; without it no hints are sent. */
  readonly sampler?: { url: string; token: string };
  /** Reuse a data directory (a restart); default a fresh temporary one. */
  readonly dataDirectory?: string;
  /** More flags, e.g. ['--page-pool-size', '2']. */
  readonly extraArguments?: readonly string[];
}

export interface TestDownloader {
  readonly url: string;
  readonly client: DownloaderClient;
  readonly core: DownloaderCore;
  readonly dataDirectory: string;
  /** Graceful shutdown, as on SIGTERM. */
  stop(): Promise<void>;
  /** stop(), then delete the data directory. */
  dispose(): Promise<void>;
}

/** Flags that make the politeness timings test-sized; a test's own flags come after and win. */
export const FAST_POLITENESS_ARGUMENTS = [
  '--backoff-base-ms',
  '100',
  '--backoff-cap-ms',
  '800',
  '--pause-after-error-count',
  '3',
  '--pause-seconds',
  '2',
  '--runtime-flush-interval-ms',
  '100',
  '--lease-poll-interval-ms',
  '100',
];

export function downloaderArguments(
  options: TestDownloaderOptions,
  dataDirectory: string,
): string[] {
  return [
    '--token',
    TEST_DOWNLOADER_TOKEN,
    '--data-dir',
    dataDirectory,
    '--validate-responses',
    '--allow-destinations',
    options.allowDestinations.join(','),
    '--contact-url',
    'https://crawler.test/contact',
    ...(options.scheduler === undefined
      ? ['--lease-loop', 'off']
      : [
          '--scheduler-url',
          options.scheduler.url,
          '--scheduler-token',
          options.scheduler.token,
          '--worker-id',
          'test-worker',
        ]),
    ...(options.sampler === undefined
      ? []
      : ['--sampler-url', options.sampler.url, '--sampler-token', options.sampler.token]),
    ...FAST_POLITENESS_ARGUMENTS,
    ...(options.extraArguments ?? []),
  ];
}

/** The real downloader service (HTTP app, storage, Chromium) in this process on 127.0.0.1:0. */
export async function startTestDownloader(options: TestDownloaderOptions): Promise<TestDownloader> {
  const dataDirectory = options.dataDirectory ?? mkdtempSync(join(tmpdir(), 'downloader-test-'));
  let core: DownloaderCore | undefined;
  const running: RunningService = await startDownloader(
    ['node', 'downloader', '--port', '0', ...downloaderArguments(options, dataDirectory)],
    process.env.CHROMIUM_PATH === undefined ? {} : { CHROMIUM_PATH: process.env.CHROMIUM_PATH },
    { hostLookup: refuseNameLookup, onCoreReady: (ready) => (core = ready) },
  );
  const stop = () => running.shutdown('test finished');
  return {
    url: running.url,
    client: new DownloaderClient({
      baseUrl: running.url,
      token: TEST_DOWNLOADER_TOKEN,
      maximumAttemptCount: 1,
    }),
    core: core as DownloaderCore,
    dataDirectory,
    stop,
    dispose: async () => {
      await stop();
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

/** Polls until `condition` holds (or fails the test after `timeoutMs`). */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const startedAt = Date.now();
  while (!(await condition())) {
    if (Date.now() - startedAt > timeoutMs)
      throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
