import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StartedServiceProcess } from '../common/testing/service-process';
import { urlHash } from '../common/url';
import type { LeaseResponse } from './frontier/wire-types';
import { doneResult, link, ruleFor } from './testing/contract-fixtures';
import {
  checkLeasesAfterRestart,
  driveLeaseTraffic,
  type ReceivedLease,
} from './testing/lease-traffic';
import { seedUrls } from './testing/lease-helpers';
import {
  PROCESS_SCHEDULER_TOKEN,
  startSchedulerProcess,
} from './testing/scheduler-process-harness';

const DOMAINS = Array.from({ length: 40 }, (_, index) => `site-${index}.example`);
const SEEDS_PER_DOMAIN = 40;

/** A seed links to one page of its own; that page links nowhere new. */
function resultsOf(lease: LeaseResponse) {
  return lease.task_list.map((task) =>
    doneResult(task, {
      link_list: task.url.endsWith('/found') ? [] : [link(`${task.url}/found`)],
    }),
  );
}

function traffic(baseUrl: string, received: ReceivedLease[], shouldGoOn: () => boolean) {
  return driveLeaseTraffic({
    baseUrl,
    token: PROCESS_SCHEDULER_TOKEN,
    workerCount: 4,
    taskCount: 10,
    leaseTtlSeconds: 10,
    waitMs: 0,
    resultsOf,
    received,
    shouldGoOn,
  });
}

/*
 * Workers lease and report as fast as they can, with a link per page; after a moment the scheduler
 * is killed (SIGKILL, mid-traffic), restarted on its data, and the crawl finishes. Every
 * acknowledged report must have survived, and no URL may be leased while a live lease holds it.
 */
describe('kill -9 of the scheduler in the middle of traffic', () => {
  let dataDirectory: string;
  let running: StartedServiceProcess | undefined;

  beforeEach(() => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'scheduler-kill-'));
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('loses no acknowledged report and leases no URL a live lease holds', async () => {
    const first = await startSchedulerProcess(dataDirectory, { domainInFlightCap: 5 });
    running = first.running;
    await first.client.submitRules({ rule_list: DOMAINS.map((domain) => ruleFor(domain)) });
    const seeds = seedUrls(DOMAINS, SEEDS_PER_DOMAIN);
    for (let start = 0; start < seeds.length; start += 1000) {
      await first.client.submitSeeds({ seed_list: seeds.slice(start, start + 1000) }); // the limit
    }
    const before: ReceivedLease[] = [];
    const flowing = traffic(first.running.url, before, () => true);
    // Killed once some reports were acknowledged, at a moment a report is on its way.
    const isMidTraffic = () =>
      before.filter((entry) => entry.isReportAcknowledged).length >= 20 &&
      before.some((entry) => !entry.isReportAcknowledged);
    const killBy = Date.now() + 10_000;
    while (!isMidTraffic() && Date.now() < killBy) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    // One lease surely still out at the kill (a report on its way may yet be answered before the
    // signal lands): taken, never reported — after the restart none of its URLs may be leased
    // before it expires.
    const heldBack = await first.client.leaseTasks({
      worker_id: 'held-back-worker',
      task_count: 5,
      lease_ttl_seconds: 10,
      wait_ms: 0,
    });
    expect(heldBack.task_list.length).toBeGreaterThan(0);
    before.push({
      lease: heldBack,
      receivedAtMs: Date.now(),
      expiresAtMs: Date.parse(heldBack.expires_at),
      isReportAcknowledged: false,
    });
    first.running.child.kill('SIGKILL');
    await flowing;
    await first.running.stop();
    const acknowledged = before.filter((entry) => entry.isReportAcknowledged);
    // Killed mid-traffic: some reports were acknowledged, some leases were still out.
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(before.length - acknowledged.length).toBeGreaterThan(0);

    const second = await startSchedulerProcess(dataDirectory, { domainInFlightCap: 5 });
    running = second.running;
    // Every acknowledged report survived: its URLs are done and its links in the frontier.
    for (const { lease } of acknowledged) {
      for (const task of lease.task_list) {
        expect((await second.client.getUrlTask({ url_hash: task.url_hash })).url_state).toBe(
          'done',
        );
        if (!task.url.endsWith('/found')) {
          const found = await second.client.getUrlTask({ url_hash: urlHash(`${task.url}/found`) });
          expect(found.url_state).not.toBe('dropped');
        }
      }
    }
    // The crawl finishes; no URL is leased again while a lease from before the kill holds it.
    const after: ReceivedLease[] = [];
    const total = DOMAINS.length * SEEDS_PER_DOMAIN * 2; // every seed and its one link
    const deadline = Date.now() + 30_000;
    let finished = false;
    const watcher = (async () => {
      while (!finished && Date.now() < deadline) {
        const summary = await second.client.getFrontierSummary({});
        finished =
          summary.url_state_list.find((row) => row.url_state === 'done')?.url_count === total;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    await traffic(second.running.url, after, () => !finished && Date.now() < deadline);
    await watcher;
    expect(finished).toBe(true);
    expect(checkLeasesAfterRestart(before, after)).toEqual({
      leasedWhileHeldCount: 0,
      leasedTwiceCount: 0,
    });
  }, 60_000);
});
