import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { serviceEntryPoint } from '../common/process/service-entry-point';
import type { StartedServiceProcess } from '../common/testing/service-process';
import { threadNicenessOf } from '../common/testing/thread-niceness';
import { doneResult, link, ruleFor } from './testing/contract-fixtures';
import { reportAllDone, seedUrls } from './testing/lease-helpers';
import {
  PROCESS_SCHEDULER_TOKEN,
  startSchedulerProcess,
} from './testing/scheduler-process-harness';

/** The scheduler as its own process, on its own data directory. */
function startProcess(dataDirectory: string) {
  return startSchedulerProcess(dataDirectory, { domainInFlightCap: 10 });
}

describe('the scheduler process', () => {
  let dataDirectory: string;
  let running: StartedServiceProcess | undefined;

  beforeEach(() => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'scheduler-process-'));
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('runs its event loop and its HTTP thread ahead of its own helper threads (niceness 0, theirs 5)', async () => {
    const started = await startProcess(dataDirectory);
    running = started.running;
    const pid = started.running.child.pid as number;
    const listening = started.running.logLines.find((line) => line.msg === 'service listening');
    // On a thread of its own unless the run says otherwise (test:keyspace-frontier does).
    const isHttpThreaded = process.env.SCHEDULER_HTTP_THREAD !== 'off';
    expect(listening?.is_http_threaded).toBe(isHttpThreaded);
    const httpThreadId = listening?.http_thread_id as number | undefined;
    expect(httpThreadId !== undefined).toBe(isHttpThreaded);
    const background = () =>
      [...threadNicenessOf(pid)].filter(
        ([threadId]) => threadId !== pid && threadId !== httpThreadId,
      );
    // Threads start lazily; each second the scheduler lowers those that came since (bounded wait).
    const deadline = Date.now() + 5_000;
    while (background().some(([, niceness]) => niceness < 5) && Date.now() < deadline) {
      await sleep(100);
    }
    expect(threadNicenessOf(pid).get(pid)).toBe(0);
    if (httpThreadId !== undefined) expect(threadNicenessOf(pid).get(httpThreadId)).toBe(0);
    expect(background().length).toBeGreaterThan(0);
    expect(background().filter(([, niceness]) => niceness < 5)).toEqual([]);
  });

  it('recovers from kill -9: the lease survives and its URLs are reclaimed once it expires', async () => {
    const first = await startProcess(dataDirectory);
    running = first.running;
    await first.client.submitRules({ rule_list: [ruleFor('news.example')] });
    await first.client.submitSeeds({ seed_list: seedUrls(['news.example'], 3) });
    const lease = await first.client.leaseTasks({
      worker_id: 'w1',
      task_count: 10,
      lease_ttl_seconds: 10,
    });
    expect(lease.task_list).toHaveLength(3);

    first.running.child.kill('SIGKILL');
    await first.running.stop();

    const second = await startProcess(dataDirectory);
    running = second.running;
    const loaded = second.running.logLines.find((line) => line.msg === 'frontier loaded');
    expect(loaded).toMatchObject({ url_count: 3, live_lease_count: 1 });
    // Where the rebuild spent its time, phase by phase, adding up to no more than the whole.
    const phaseMs = [
      'rule_read_ms',
      'side_table_read_ms',
      'domain_read_ms',
      'lease_load_ms',
      'schedule_settle_ms',
      'startup_write_ms',
    ].map((field) => loaded?.[field]);
    expect(phaseMs.every((ms) => typeof ms === 'number' && ms >= 0)).toBe(true);
    expect((phaseMs as number[]).reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(
      Number(loaded?.elapsed_ms) + phaseMs.length,
    );
    const summary = await second.client.getFrontierSummary({});
    expect(summary.live_lease_count).toBe(1);
    expect(summary.url_state_list.find((row) => row.url_state === 'leased')?.url_count).toBe(3);
    expect((await second.client.leaseTasks({ worker_id: 'w2' })).task_list).toHaveLength(0);

    // Bounded wait for the 10 s lease to pass (the reclaimer ticks every 100 ms).
    const deadline = Date.now() + 20_000;
    let again = await second.client.leaseTasks({ worker_id: 'w2', task_count: 10 });
    while (again.task_list.length === 0 && Date.now() < deadline) {
      await sleep(250);
      again = await second.client.leaseTasks({ worker_id: 'w2', task_count: 10 });
    }
    expect(again.task_list.map((task) => task.url_hash).sort()).toEqual(
      lease.task_list.map((task) => task.url_hash).sort(),
    );
    const late = await second.client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: lease.task_list.map((task) =>
        doneResult(task, { link_list: [link('https://news.example/new')] }),
      ),
    });
    expect(late.is_stale_lease).toBe(true);
    expect(await reportAllDone(second.client, again)).toMatchObject({ accepted_count: 3 });
    expect((await second.client.getFrontierSummary({})).expired_lease_count).toBe(1);
  }, 40_000);

  it('on a port in use stops its frontier cleanly before it exits: the next start trusts it', async () => {
    const first = await startProcess(dataDirectory);
    running = first.running;
    await first.client.submitRules({ rule_list: [ruleFor('news.example')] });
    await first.client.submitSeeds({ seed_list: seedUrls(['news.example'], 3) });
    await first.running.stop();

    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      // Run to its exit, as service-process.test.ts runs the programs; the taken port stays bound
      // while this process waits.
      const entry = serviceEntryPoint('scheduler');
      const failed = spawnSync(
        entry.command,
        [
          ...entry.argumentList,
          ...['--data-dir', dataDirectory, '--port', String(port)],
          ...['--domain-in-flight-cap', '10'],
        ],
        {
          encoding: 'utf8',
          env: { ...process.env, SCHEDULER_TOKEN: PROCESS_SCHEDULER_TOKEN, LOG_LEVEL: 'info' },
          timeout: 20_000,
        },
      );
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }

    // The failed start opened the store (a start that is not stopped leaves it to be recounted,
    // as after a crash) and then stopped it with a clean final write.
    const second = await startProcess(dataDirectory);
    running = second.running;
    const loaded = second.running.logLines.find((line) => line.msg === 'frontier loaded');
    expect(loaded).toMatchObject({ url_count: 3, is_recounted: false });
  }, 40_000);

  it('hands out at most 6 tasks per domain in 5 s of tight leasing at min_interval_ms 1000 (real time)', async () => {
    const started = await startProcess(dataDirectory);
    running = started.running;
    const { client } = started;
    const domains = ['one.example', 'two.example', 'three.example'];
    await client.submitRules({
      rule_list: domains.map((domain) => ruleFor(domain, { min_interval_ms: 1000 })),
    });
    await client.submitSeeds({ seed_list: seedUrls(domains, 30) });
    const perDomain = new Map<string, number>();
    const endAt = Date.now() + 5000;
    while (Date.now() < endAt) {
      const lease = await client.leaseTasks({ worker_id: 'tight-loop', task_count: 50 });
      for (const task of lease.task_list)
        perDomain.set(task.domain, (perDomain.get(task.domain) ?? 0) + 1);
      if (lease.task_list.length > 0) await reportAllDone(client, lease);
    }
    for (const domain of domains) {
      expect(perDomain.get(domain)).toBeLessThanOrEqual(6);
      expect(perDomain.get(domain)).toBeGreaterThanOrEqual(4);
    }
  }, 30_000);
});
