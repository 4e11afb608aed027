import { performance } from 'node:perf_hooks';
import { SchedulerClient } from '../../generated/scheduler';
import {
  checkLeasesAfterRestart,
  driveLeaseTraffic,
  type ReceivedLease,
} from '../../services/scheduler/testing/lease-traffic';
import { log } from './bench-log';
import type { BenchCorpus } from './bench-corpus';
import { BENCH_TOKEN, startBenchScheduler } from './scheduler-process';

export interface KillCheckResult {
  acknowledgedReportCount: number;
  interruptedLeaseCount: number;
  checkedUrlCount: number;
  lostUrlCount: number;
  /** URLs leased after the restart while a lease from before the kill still held them. */
  leasedWhileHeldCount: number;
  /** URLs in two leases issued after the restart. */
  leasedTwiceCount: number;
  restartProcessSeconds: number;
  restartStorageOpenSeconds: number;
  restartFrontierLoadSeconds: number;
  /** The rebuild's phases as its log line gives them ('rule read 480 ms, …'). */
  restartFrontierLoadParts: string;
  /** The restart recounted from url_task (it does after a crash: no clean stop wrote the rows). */
  isRestartRecounted: boolean;
}

const LEASE_TTL_SECONDS = 10;
/** Acknowledged URLs read back after the restart, at most (bounds the check's duration). */
const MAX_CHECKED_URLS = 4000;

/**
 * kill -9 of the scheduler in the middle of a bench stage: workers lease and report as in the
 * measurement; the process is killed mid-traffic and restarted on its data. Then every
 * acknowledged report's URLs must be done (none lost), and for a while of traffic after the
 * restart no URL may be leased while a lease from before the kill holds it, nor twice.
 */
export async function runKillCheck(options: {
  dataDirectory: string;
  /** The tree (or its dist/) the scheduler runs from (bench-build.ts). */
  sourceRoot?: string;
  corpus: BenchCorpus;
  frontierSize: number;
  trafficSeconds: number;
}): Promise<KillCheckResult> {
  const { corpus } = options;
  const first = await startBenchScheduler({
    dataDirectory: options.dataDirectory,
    sourceRoot: options.sourceRoot,
  });
  const before: ReceivedLease[] = [];
  const isKilled = { value: false };
  const traffic = drive(
    first.running.url,
    corpus,
    options.frontierSize,
    before,
    () => !isKilled.value,
  );
  await new Promise((resolve) => setTimeout(resolve, options.trafficSeconds * 1000));
  first.running.child.kill('SIGKILL');
  isKilled.value = true;
  await traffic;
  await first.running.stop();
  const acknowledged = before.filter((entry) => entry.isReportAcknowledged);
  log(
    `  killed after ${before.length} leases (${acknowledged.length} acknowledged reports); restarting`,
  );

  const second = await startBenchScheduler({
    dataDirectory: options.dataDirectory,
    sourceRoot: options.sourceRoot,
  });
  try {
    const client = new SchedulerClient({
      baseUrl: second.running.url,
      token: BENCH_TOKEN,
      maximumAttemptCount: 1,
    });
    const checked = acknowledged
      .flatMap((entry) => entry.lease.task_list.map((task) => task.url_hash))
      .slice(0, MAX_CHECKED_URLS);
    let lostUrlCount = 0;
    for (const urlHash of checked) {
      const task = await client.getUrlTask({ url_hash: urlHash });
      if (task.url_state !== 'done') lostUrlCount += 1;
    }
    const after: ReceivedLease[] = [];
    const until = performance.now() + (LEASE_TTL_SECONDS + 3) * 1000;
    await drive(
      second.running.url,
      corpus,
      options.frontierSize,
      after,
      () => performance.now() < until,
    );
    const { leasedWhileHeldCount, leasedTwiceCount } = checkLeasesAfterRestart(before, after);
    return {
      acknowledgedReportCount: acknowledged.length,
      interruptedLeaseCount: before.length - acknowledged.length,
      checkedUrlCount: checked.length,
      lostUrlCount,
      leasedWhileHeldCount,
      leasedTwiceCount,
      restartProcessSeconds: second.processStartSeconds,
      restartStorageOpenSeconds: second.storageOpenSeconds,
      restartFrontierLoadSeconds: second.frontierLoadSeconds,
      restartFrontierLoadParts: second.frontierLoadParts,
      isRestartRecounted: second.isRecounted,
    };
  } finally {
    await second.running.stop(10_000);
  }
}

/** Four workers leasing (long polling) and reporting, one attempt per report, while `shouldGoOn`. */
function drive(
  baseUrl: string,
  corpus: BenchCorpus,
  frontierSize: number,
  received: ReceivedLease[],
  shouldGoOn: () => boolean,
): Promise<void> {
  const serial = { next: Math.floor(Math.random() * 1e12) };
  return driveLeaseTraffic({
    baseUrl,
    token: BENCH_TOKEN,
    workerCount: 4,
    taskCount: 50,
    leaseTtlSeconds: LEASE_TTL_SECONDS,
    waitMs: 500,
    resultsOf: (lease) => corpus.reportOf(lease, serial, frontierSize),
    received,
    shouldGoOn,
  });
}
