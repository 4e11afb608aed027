import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchedulerClient } from '../../generated/scheduler';
import { startServiceProcess, type StartedServiceProcess } from '../common/testing/service-process';
import { urlHash } from '../common/url';
import type { LeaseResponse } from './frontier/wire-types';
import { doneResult, link, ruleFor } from './testing/contract-fixtures';
import { seedUrls } from './testing/lease-helpers';

const token = 'scheduler-kill-token-0123456789';
const DOMAINS = Array.from({ length: 40 }, (_, index) => `site-${index}.example`);
const SEEDS_PER_DOMAIN = 40;
const LEASE_TTL_SECONDS = 10;

async function startProcess(dataDirectory: string) {
  const running = await startServiceProcess(
    'scheduler',
    [
      '--data-dir',
      dataDirectory,
      '--maintenance-interval-ms',
      '100',
      '--domain-in-flight-cap',
      '5',
    ],
    { SCHEDULER_TOKEN: token, LOG_LEVEL: 'info' },
  );
  const client = new SchedulerClient({
    baseUrl: running.url,
    token,
    maximumAttemptCount: 1,
    timeoutMs: 10_000,
  });
  return { running, client };
}

/** A lease the workers received, and what became of its report. */
interface ReceivedLease {
  lease: LeaseResponse;
  receivedAtMs: number;
  expiresAtMs: number;
  isReportAcknowledged: boolean;
}

/**
 * Workers lease and report as fast as they can, with a link per page; after a moment the scheduler
 * is killed (SIGKILL, mid-traffic), restarted on its data, and the crawl finishes. Every
 * acknowledged report must have survived, and no URL may be leased while a live lease holds it.
 */
/** One POST /v1/report (the generated client retries a report until it succeeds). */
async function reportOnce(baseUrl: string, lease: LeaseResponse): Promise<void> {
  const response = await fetch(`${baseUrl}/v1/report`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      lease_id: lease.lease_id,
      worker_id: lease.worker_id,
      // A seed links to one page of its own; that page links nowhere new.
      result_list: lease.task_list.map((task) =>
        doneResult(task, {
          link_list: task.url.endsWith('/found') ? [] : [link(`${task.url}/found`)],
        }),
      ),
    }),
  });
  if (response.status !== 200) throw new Error(`report answered ${response.status}`);
}

async function crawl(
  baseUrl: string,
  client: SchedulerClient,
  received: ReceivedLease[],
  shouldGoOn: () => boolean,
): Promise<void> {
  await Promise.all(
    Array.from({ length: 4 }, async (_, worker) => {
      while (shouldGoOn()) {
        let lease: LeaseResponse;
        try {
          lease = await client.leaseTasks({
            worker_id: `w${worker}`,
            task_count: 10,
            lease_ttl_seconds: LEASE_TTL_SECONDS,
          });
        } catch {
          return; // the scheduler is gone
        }
        if (lease.task_list.length === 0) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        const entry: ReceivedLease = {
          lease,
          receivedAtMs: Date.now(),
          expiresAtMs: Date.parse(lease.expires_at),
          isReportAcknowledged: false,
        };
        received.push(entry);
        try {
          await reportOnce(baseUrl, lease);
          entry.isReportAcknowledged = true;
        } catch {
          return;
        }
      }
    }),
  );
}

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
    const first = await startProcess(dataDirectory);
    running = first.running;
    await first.client.submitRules({ rule_list: DOMAINS.map((domain) => ruleFor(domain)) });
    await first.client.submitSeeds({ seed_list: seedUrls(DOMAINS, SEEDS_PER_DOMAIN) });
    const before: ReceivedLease[] = [];
    const killAt = Date.now() + 1500;
    const traffic = crawl(first.running.url, first.client, before, () => true);
    await new Promise((resolve) => setTimeout(resolve, killAt - Date.now()));
    first.running.child.kill('SIGKILL');
    await traffic;
    await first.running.stop();
    const acknowledged = before.filter((entry) => entry.isReportAcknowledged);
    // Killed mid-traffic: some reports were acknowledged, some leases were still out.
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(before.length - acknowledged.length).toBeGreaterThan(0);

    const second = await startProcess(dataDirectory);
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
    await crawl(second.running.url, second.client, after, () => !finished && Date.now() < deadline);
    await watcher;
    expect(finished).toBe(true);
    const holders = new Map<string, ReceivedLease>();
    for (const entry of before) {
      for (const task of entry.lease.task_list) holders.set(task.url_hash, entry);
    }
    const leasedAgain = after.flatMap((entry) =>
      entry.lease.task_list.map((task) => task.url_hash),
    );
    expect(new Set(leasedAgain).size).toBe(leasedAgain.length);
    for (const entry of after) {
      for (const task of entry.lease.task_list) {
        const earlier = holders.get(task.url_hash);
        if (earlier === undefined) continue;
        expect(earlier.isReportAcknowledged).toBe(false);
        // Leased again only once the lease from before the kill had expired.
        expect(entry.receivedAtMs).toBeGreaterThanOrEqual(earlier.expiresAtMs);
      }
    }
  }, 60_000);
});
