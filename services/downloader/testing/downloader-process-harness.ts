import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DownloaderClient } from '../../../generated/downloader';
import {
  startServiceProcess,
  type StartedServiceProcess,
} from '../../common/testing/service-process';
import {
  downloaderArguments,
  TEST_DOWNLOADER_TOKEN,
  type TestDownloaderOptions,
} from './downloader-test-harness';

export interface DownloaderProcess {
  readonly url: string;
  readonly client: DownloaderClient;
  readonly process: StartedServiceProcess;
  readonly dataDirectory: string;
  /** A sample of the process's Prometheus metrics: the first line starting with `name`. */
  metric(name: string): Promise<number>;
}

/** The real downloader as its own process (`services/downloader/main.ts`), as production runs it. */
export async function startDownloaderProcess(
  options: TestDownloaderOptions,
): Promise<DownloaderProcess> {
  const dataDirectory = options.dataDirectory ?? mkdtempSync(join(tmpdir(), 'downloader-process-'));
  const started = await startServiceProcess(
    'downloader',
    downloaderArguments(options, dataDirectory),
    // "service listening" is an info line: the child must log at info whatever the tests use.
    { LOG_LEVEL: 'info' },
    30_000,
  );
  return {
    url: started.url,
    client: new DownloaderClient({
      baseUrl: started.url,
      token: TEST_DOWNLOADER_TOKEN,
      maximumAttemptCount: 1,
    }),
    process: started,
    dataDirectory,
    metric: async (name) => {
      const text = await (await fetch(`${started.url}/metrics`)).text();
      const line = text.split('\n').find((candidate) => candidate.startsWith(name));
      return line === undefined ? 0 : Number(line.split(' ').pop());
    },
  };
}
