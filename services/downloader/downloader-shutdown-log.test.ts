import { rmSync } from 'node:fs';
import {
  FAKE_SCHEDULER_TOKEN,
  startFakeScheduler,
  type FakeScheduler,
} from './testing/fake-scheduler';
import { waitUntil } from './testing/downloader-test-harness';
import {
  startDownloaderProcess,
  type DownloaderProcess,
} from './testing/downloader-process-harness';

// Ctrl-C on `make run`: the downloader, like the scheduler and the sampler, says that it is
// shutting down and that it stopped (service-host's runService), with its lease loop running.
let scheduler: FakeScheduler;
let downloader: DownloaderProcess | undefined;

beforeAll(async () => {
  scheduler = await startFakeScheduler();
});

afterAll(async () => {
  await downloader?.process.stop();
  await scheduler?.close();
  if (downloader) rmSync(downloader.dataDirectory, { recursive: true, force: true });
});

test('logs "shutting down" (reason SIGINT) and then "stopped" on SIGINT, and exits 0', async () => {
  downloader = await startDownloaderProcess({
    allowDestinations: ['127.0.0.1'],
    scheduler: { url: scheduler.url, token: FAKE_SCHEDULER_TOKEN },
    extraArguments: ['--page-pool-size', '1'],
  });
  const { child, logLines } = downloader.process;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  child.kill('SIGINT');
  expect(await exited).toBe(0);
  await waitUntil(() => logLines.some((line) => line.msg === 'stopped'), 5000);
  const messages = logLines.map((line) => line.msg);
  const shuttingDown = logLines.find((line) => line.msg === 'shutting down');
  expect(shuttingDown).toMatchObject({ service: 'downloader', reason: 'SIGINT' });
  expect(messages.indexOf('stopped')).toBeGreaterThan(messages.indexOf('shutting down'));
}, 60_000);
