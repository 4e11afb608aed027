import {
  startTikvTestDouble,
  type TikvTestDouble,
} from '../common/storage/tikv/test-double/tikv-test-double';
import { doneResult, link, ruleFor } from './testing/contract-fixtures';
import { reportAllDone, reportOfAllDone, seedUrls, urlCounts } from './testing/lease-helpers';
import { ManualClock } from './testing/manual-clock';
import {
  startTestScheduler,
  TEST_SCHEDULER_TOKEN,
  type TestScheduler,
} from './testing/scheduler-test-harness';
import { reportOnce } from './testing/scheduler-process-harness';
import { WriteInterceptor } from './testing/write-interceptor';

/*
 * The same frontier on TiKV (its protocol-level double, over real gRPC): writes are not atomic
 * across keys there, so every batch goes out phase by phase (write-batch.ts). The scenarios that
 * depend on it — leasing, reporting, expiry, a clean restart, and a restart after the process died
 * between two writes — must behave exactly as on LMDB.
 */
describe('the frontier on TiKV (double)', () => {
  let double: TikvTestDouble;
  let clock: ManualClock;
  let scheduler: TestScheduler | undefined;
  let dataDirectory: string | undefined;

  beforeEach(async () => {
    double = await startTikvTestDouble();
    clock = new ManualClock();
  });
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
    dataDirectory = undefined;
    await double.stop();
  });

  async function start(storage?: WriteInterceptor): Promise<TestScheduler> {
    scheduler = await startTestScheduler({
      clock,
      dataDirectory,
      flags: ['--domain-in-flight-cap', '10'],
      environment: { STORAGE_BACKEND: 'tikv', TIKV_PD_ENDPOINTS: double.pdEndpoints.join(',') },
      wrapBackend: storage === undefined ? undefined : (backend) => storage.wrap(backend),
    });
    dataDirectory = scheduler.dataDirectory;
    return scheduler;
  }

  it('leases, reports, expires and re-leases as on LMDB, and comes back the same after a clean restart', async () => {
    const { client } = await start();
    await client.submitRules({ rule_list: [ruleFor('news.example'), ruleFor('blog.example')] });
    await client.submitSeeds({ seed_list: seedUrls(['news.example', 'blog.example'], 3) });
    const reported = await client.leaseTasks({ worker_id: 'w1', task_count: 3 });
    const answer = await client.reportLease({
      lease_id: reported.lease_id,
      worker_id: 'w1',
      result_list: reported.task_list.map((task) =>
        doneResult(task, { link_list: [link(`${task.url}/more`)] }),
      ),
    });
    expect(answer).toMatchObject({ is_stale_lease: false, accepted_count: 3 });
    expect(await reportAllDone(client, reported)).toEqual(answer);
    const expiring = await client.leaseTasks({
      worker_id: 'w2',
      task_count: 3,
      lease_ttl_seconds: 10,
    });
    clock.advance(11_000);
    expect((await reportAllDone(client, expiring)).is_stale_lease).toBe(true);
    const before = await urlCounts(client);
    expect(before).toMatchObject({ done: 3, queued: 6, leased: 0 });

    await (scheduler as TestScheduler).stop({ keepData: true });
    const restarted = await start();
    expect(await urlCounts(restarted.client)).toEqual(before);
    const leased = new Set<string>();
    for (let round = 0; round < 3; round += 1) {
      const again = await restarted.client.leaseTasks({ worker_id: `w${round}`, task_count: 50 });
      for (const task of again.task_list) leased.add(task.url_hash);
    }
    expect(leased.size).toBe(6);
  });

  it('settles a report cut short between its answer and its clean-up on the next start', async () => {
    const storage = new WriteInterceptor();
    const { client, url } = await start(storage);
    await client.submitRules({ rule_list: [ruleFor('news.example')] });
    await client.submitSeeds({ seed_list: seedUrls(['news.example'], 3) });
    const lease = await client.leaseTasks({ worker_id: 'w1', task_count: 3 });
    storage.dieAfter(/scheduler:lease_result:/);
    expect(await reportOnce(url, TEST_SCHEDULER_TOKEN, reportOfAllDone(lease))).toBe(503);
    await (scheduler as TestScheduler).stop({ keepData: true });

    const restarted = await start();
    const summary = await restarted.client.getFrontierSummary({});
    expect(summary.live_lease_count).toBe(0);
    expect(await urlCounts(restarted.client)).toMatchObject({ done: 3, leased: 0, queued: 0 });
    expect(await reportAllDone(restarted.client, lease)).toMatchObject({ accepted_count: 3 });
  });
});
