import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  isStillRunning,
  listProcessTree,
  type ProcessEntry,
} from '../../scripts/bench-render/process-tree';
import { DemoSite, startDemoSite } from '../../scripts/demo-site/demo-site';
import {
  FAKE_SCHEDULER_TOKEN,
  leaseTaskFor,
  startFakeScheduler,
  type FakeScheduler,
} from './testing/fake-scheduler';
import { waitUntil } from './testing/downloader-test-harness';
import {
  startDownloaderProcess,
  type DownloaderProcess,
} from './testing/downloader-process-harness';

// The downloader as its own process and the ways it ends: SIGTERM (graceful — renders in
// flight finish and are reported), SIGKILL (Chromium must die with it, and no profile may be
// left behind in /tmp), and SIGINT (Ctrl-C in `make run`: it says so, like the other services).
let site: DemoSite;
let scheduler: FakeScheduler;
const started: DownloaderProcess[] = [];

beforeAll(async () => {
  site = await startDemoSite({ crawlDelaySeconds: 0 });
  scheduler = await startFakeScheduler();
});

afterAll(async () => {
  await Promise.all(started.map((downloader) => downloader.process.stop()));
  await Promise.all([site?.stop(), scheduler?.close()]);
  for (const { dataDirectory } of started) rmSync(dataDirectory, { recursive: true, force: true });
});

async function startDownloader(dataDirectory?: string): Promise<DownloaderProcess> {
  const downloader = await startDownloaderProcess({
    allowDestinations: site.hosts,
    scheduler: { url: scheduler.url, token: FAKE_SCHEDULER_TOKEN },
    dataDirectory,
    extraArguments: ['--page-pool-size', '2', '--lease-ttl-seconds', '60'],
  });
  started.push(downloader);
  return downloader;
}

/** TMPDIR in a process's environment (undefined when it has none or is gone). */
function environmentTemporaryDirectory(entry: ProcessEntry): string | undefined {
  try {
    const variables = readFileSync(`/proc/${entry.pid}/environ`, 'utf8').split('\0');
    return variables.find((variable) => variable.startsWith('TMPDIR='))?.slice('TMPDIR='.length);
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function commandLine(entry: ProcessEntry): string {
  try {
    return readFileSync(`/proc/${entry.pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

test('SIGTERM lets the renders in flight finish and reports them done, then exits 0', async () => {
  const downloader = await startDownloader();
  // robots.txt of both hosts fetched and cached first, so what is in flight below is the renders.
  const warmUp = [
    leaseTaskFor(`${site.baseUrls[0]}/about`),
    leaseTaskFor(`${site.baseUrls[1]}/about`),
  ];
  scheduler.queue.push(...warmUp);
  await waitUntil(
    () => scheduler.reports.flatMap((report) => report.result_list).length >= warmUp.length,
    20_000,
  );
  const leaseCallsBefore = scheduler.leaseCalls.length;
  const tasks = [
    // Answered 1 s after they arrive: in flight at SIGTERM, done well within the 6 s drain even
    // on a busy machine.
    leaseTaskFor(`${site.baseUrls[0]}/slow?delay_ms=1000`),
    leaseTaskFor(`${site.baseUrls[1]}/slow?delay_ms=1000`),
  ];
  scheduler.queue.push(...tasks);
  // Both pages are rendering: their requests left and the origin has not answered yet.
  await waitUntil(
    async () => (await downloader.client.listDomainRuntime({})).summary.in_flight_count >= 2,
    20_000,
  );
  // With long polling the two tasks may arrive in one lease or in two; each lease that carried one
  // is reported exactly once, and together the reports say both are done.
  const leases = scheduler.leaseCalls
    .slice(leaseCallsBefore)
    .filter((call) => tasks.some((task) => call.url_hash_list.includes(task.url_hash)));
  expect(leases.length).toBeGreaterThan(0);

  expect(await downloader.process.stop(20_000)).toBe(0);

  const results = leases.flatMap((lease) => {
    const reports = scheduler.reportsOf(lease.lease_id);
    expect(reports).toHaveLength(1);
    return reports[0].result_list;
  });
  expect(
    results.map((result) => [result.url_hash, result.fetch_status, result.fail_reason]),
  ).toEqual(expect.arrayContaining(tasks.map((task) => [task.url_hash, 'done', null])));
  expect(results).toHaveLength(2);
  expect(downloader.process.logLines.map((line) => line.msg)).not.toContain(
    'browser lost; relaunching',
  );
}, 60_000);

test('kill -9 takes every Chromium process along at once; its profile, kept under the data directory, is swept at the next start', async () => {
  const first = await startDownloader();
  const profileRoot = join(first.dataDirectory, 'downloader', 'browser-profiles');
  const chromium = listProcessTree(first.process.child.pid as number).slice(1);
  expect(chromium.length).toBeGreaterThan(2);
  // Every browser runs on a profile under the data directory — none in /tmp.
  const profileArguments = chromium
    .map(commandLine)
    .flatMap((line) => /--user-data-dir=(\S+)/.exec(line)?.[1] ?? []);
  expect(profileArguments.length).toBeGreaterThan(0);
  for (const profile of profileArguments) expect(profile.startsWith(`${profileRoot}/`)).toBe(true);
  const [killedProfile] = readdirSync(profileRoot);
  expect(killedProfile).toBeDefined();
  // Chromium's TMPDIR (its singleton socket's directory) is the downloader's own, emptied at start.
  const chromiumTemporary = new Set(
    chromium.flatMap((entry) => environmentTemporaryDirectory(entry) ?? []),
  );
  expect(chromiumTemporary.size).toBe(1);
  const [temporaryDirectory] = [...chromiumTemporary];
  expect(temporaryDirectory).toMatch(/\/chromium-[0-9a-f]{10}$/);
  // What a killed Chromium leaves there (the full browser's singleton socket, a temporary file):
  // the headless shell makes no singleton, so the test leaves a file of its own as well.
  writeFileSync(join(temporaryDirectory as string, 'left-by-the-killed-browser'), '');

  const exited = new Promise((resolve) => first.process.child.once('exit', resolve));
  first.process.child.kill('SIGKILL');
  // Judged from the downloader's death (on a loaded machine a big process takes a moment to go).
  await exited;
  await sleep(500);
  const survivors = chromium.filter(isStillRunning).map((entry) => commandLine(entry));
  expect(survivors).toEqual([]);

  const leftInTemporary = readdirSync(temporaryDirectory as string);
  const second = await startDownloader(first.dataDirectory);
  expect(existsSync(join(profileRoot, killedProfile))).toBe(false);
  const nowInTemporary = readdirSync(temporaryDirectory as string);
  expect(nowInTemporary.filter((name) => leftInTemporary.includes(name))).toEqual([]);
  expect(readdirSync(profileRoot)).toHaveLength(1);
  const ready = second.process.logLines.find((line) => line.msg === 'downloader core ready');
  expect(ready?.swept_browser_profile_count).toBe(1);
  const exitCode = await second.process.stop();
  // On a non-zero exit, what the downloader complained of says why.
  const complaints = second.process.logLines.filter((line) => Number(line.level) >= 40);
  expect({ exitCode, complaints: exitCode === 0 ? [] : complaints }).toEqual({
    exitCode: 0,
    complaints: [],
  });
  // A graceful stop removes the profile of the browser it closed, and Chromium's TMPDIR.
  expect(readdirSync(profileRoot)).toEqual([]);
  expect(existsSync(temporaryDirectory as string)).toBe(false);
}, 60_000);

test('Ctrl-C (SIGINT) logs "shutting down" with its reason, then "stopped", and exits 0', async () => {
  const downloader = await startDownloader();
  const { child, logLines } = downloader.process;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  child.kill('SIGINT');
  const exitCode = await exited;
  // Warnings and errors on the way out are shown with the exit code when it is not 0.
  const complaints = logLines.filter((line) => Number(line.level) >= 40);
  expect({ exitCode, complaints: exitCode === 0 ? [] : complaints }).toEqual({
    exitCode: 0,
    complaints: [],
  });
  await waitUntil(() => logLines.some((line) => line.msg === 'stopped'), 5000);
  const messages = logLines.map((line) => line.msg);
  expect(logLines.find((line) => line.msg === 'shutting down')).toMatchObject({
    service: 'downloader',
    reason: 'SIGINT',
  });
  expect(messages.indexOf('stopped')).toBeGreaterThan(messages.indexOf('shutting down'));
}, 60_000);
