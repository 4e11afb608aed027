import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchedulerClient } from '../../../generated/scheduler';
import type { RunningService } from '../../common/service-host/run-service';
import type { SchedulerDependencies } from '../assemble-scheduler';
import type { Clock } from '../frontier/clock';
import { startScheduler } from '../main';

export const TEST_SCHEDULER_TOKEN = 'scheduler-test-token-0123456789';

export interface TestScheduler {
  url: string;
  client: SchedulerClient;
  dataDirectory: string;
  /**
   * Stops the service (graceful) and, unless kept, deletes its data. Open connections are cut
   * first unless `isLettingRequestsFinish` (then it stops as on SIGTERM: requests in flight end).
   */
  stop(options?: { keepData?: boolean; isLettingRequestsFinish?: boolean }): Promise<void>;
}

export interface TestSchedulerOptions {
  clock?: Clock;
  /** See SchedulerDependencies.wrapBackend. */
  wrapBackend?: SchedulerDependencies['wrapBackend'];
  /** Extra flags, e.g. ['--domain-in-flight-cap', '5']. */
  flags?: string[];
  /** Reuse a data directory (restart scenarios). */
  dataDirectory?: string;
  environment?: NodeJS.ProcessEnv;
}

// Every in-process start registers SIGINT/SIGTERM listeners; a test file starts many.
process.setMaxListeners(100);
process.env.LOG_LEVEL ??= 'silent';

/**
 * The data directories this harness made for the test file that loaded it. A test that stops with
 * `keepData` (to restart on it, or to look at the store) may end without removing its directory —
 * a CI run left twelve in the temporary directory — so whatever is left goes after the file's
 * last test, when every scheduler it started is stopped.
 */
const madeDirectories = new Set<string>();
afterAll(() => {
  for (const directory of madeDirectories) rmSync(directory, { recursive: true, force: true });
  madeDirectories.clear();
});

/**
 * The real scheduler (the same assembly as `main.ts`) on 127.0.0.1 with an ephemeral port, a fresh
 * LMDB directory, response validation on, and the generated client pointed at it.
 */
export async function startTestScheduler(
  options: TestSchedulerOptions = {},
): Promise<TestScheduler> {
  const dataDirectory = options.dataDirectory ?? madeDirectory();
  const running: RunningService = await startScheduler(
    [
      'node',
      'scheduler',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data-dir',
      dataDirectory,
      '--validate-responses',
      '--maintenance-interval-ms',
      '50',
      ...(options.flags ?? []),
    ],
    {
      SCHEDULER_TOKEN: TEST_SCHEDULER_TOKEN,
      // Lets a run of the suites choose where url_task lives (`auto` unset: in memory on LMDB)
      // and where HTTP is served (unset: on a thread of its own); a test's flags come first.
      SCHEDULER_RESIDENT_URL_TASKS: process.env.SCHEDULER_RESIDENT_URL_TASKS,
      SCHEDULER_HTTP_THREAD: process.env.SCHEDULER_HTTP_THREAD,
      ...options.environment,
    },
    { clock: options.clock, wrapBackend: options.wrapBackend },
  );
  return {
    url: running.url,
    dataDirectory,
    client: new SchedulerClient({
      baseUrl: running.url,
      token: TEST_SCHEDULER_TOKEN,
      maximumAttemptCount: 1,
      timeoutMs: 10_000,
    }),
    stop: async ({ keepData = false, isLettingRequestsFinish = false } = {}) => {
      if (!isLettingRequestsFinish) running.closeAllConnections();
      await running.shutdown('test finished');
      if (!keepData) rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

function madeDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'scheduler-test-'));
  madeDirectories.add(directory);
  return directory;
}
