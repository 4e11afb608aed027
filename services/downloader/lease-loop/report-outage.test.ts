import { DemoSite, startDemoSite } from '../../../scripts/demo-site/demo-site';
import {
  FAKE_SCHEDULER_TOKEN,
  leaseTaskFor,
  startFakeScheduler,
  type FakeScheduler,
} from '../testing/fake-scheduler';
import {
  startTestDownloader,
  waitUntil,
  type TestDownloader,
} from '../testing/downloader-test-harness';

// A scheduler outage while finished results wait in the outbox. The outage ends well before the
// leases expire: every report must then arrive promptly — before its lease expires (a stale report
// is applied to nothing and its URLs are fetched again), and within moments of the scheduler's
// return, not after whatever backoff pause the retry loop had reached.
let site: DemoSite;
let scheduler: FakeScheduler;
let downloader: TestDownloader;

const LEASE_LIFETIME_SECONDS = 40;
const OUTAGE_MS = 14_000;

beforeAll(async () => {
  site = await startDemoSite({ crawlDelaySeconds: 0 });
  scheduler = await startFakeScheduler();
  scheduler.leaseLifetimeSeconds = LEASE_LIFETIME_SECONDS;
  downloader = await startTestDownloader({
    allowDestinations: site.hosts,
    scheduler: { url: scheduler.url, token: FAKE_SCHEDULER_TOKEN },
    extraArguments: ['--page-pool-size', '4', '--lease-ttl-seconds', '60'],
  });
});

afterAll(async () => {
  await downloader?.dispose();
  await Promise.all([site?.stop(), scheduler?.close()]);
});

test('reports held through a scheduler outage arrive within moments of its return, before their leases expire', async () => {
  // Three leases of one task each, so three reports retry independently through the outage.
  const leaseIds: string[] = [];
  const leasesWithTasks = () => scheduler.leaseCalls.filter((call) => call.leased_count > 0);
  for (const base of site.baseUrls) {
    scheduler.queue.push(leaseTaskFor(`${base}/slow?delay_ms=1500`));
    // The lease that took it (the loop keeps polling: later calls are empty leases).
    await waitUntil(() => leasesWithTasks().length === leaseIds.length + 1);
    leaseIds.push(leasesWithTasks()[leaseIds.length].lease_id);
  }
  const leasedAtMs = Date.now();
  await scheduler.takeDown();
  await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
  expect(leaseIds.filter((leaseId) => scheduler.acknowledgedAtMs.has(leaseId))).toEqual([]);
  await scheduler.bringBack();
  const backAtMs = Date.now();
  await waitUntil(
    () => leaseIds.every((leaseId) => scheduler.acknowledgedAtMs.has(leaseId)),
    LEASE_LIFETIME_SECONDS * 1000,
  );
  const delaysAfterReturnMs = leaseIds.map(
    (leaseId) => (scheduler.acknowledgedAtMs.get(leaseId) as number) - backAtMs,
  );
  // Before expiry (the leases had ~25 s left when the scheduler came back) …
  const expiresAtMs = leasedAtMs + LEASE_LIFETIME_SECONDS * 1000;
  for (const leaseId of leaseIds) {
    expect(scheduler.acknowledgedAtMs.get(leaseId)).toBeLessThan(expiresAtMs - 5000);
  }
  // … and promptly: the first lease call that gets through ends every report's pause.
  expect(Math.max(...delaysAfterReturnMs)).toBeLessThan(2000);
  for (const leaseId of leaseIds) {
    expect(
      scheduler.reportsOf(leaseId)[0].result_list.map((result) => result.fetch_status),
    ).toEqual(['done']);
  }
}, 90_000);
