import { freeLoopbackPort } from '../../services/common/testing/free-loopback-port';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { Queue, Worker } from 'bullmq';
import { log, percentile, type Budget } from './bench-log';
import {
  cpuMicrosecondsSince,
  serverCpuOf,
  serverCpuPerUnit,
  type LoadMeasurement,
} from './scheduler-load';

/**
 * The peer: BullMQ on a local Redis (AOF on, fsync every second — BullMQ's usual durable setting;
 * LMDB commits every write). Installs Debian's redis-server when missing (as root).
 */
export class BullmqPeer {
  private constructor(
    readonly port: number,
    readonly queue: Queue,
    /** redis-server's process, whose CPU time is read around each measurement. */
    readonly redisPid: number,
    readonly stop: () => Promise<void>,
  ) {}

  static async start(): Promise<BullmqPeer> {
    const binary = ensureRedisServer();
    const directory = mkdtempSync(join(tmpdir(), 'bench-redis-'));
    const port = await freeLoopbackPort();
    const child = spawn(
      binary,
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--dir', directory],
        ...['--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec'],
        ...['--maxmemory-policy', 'noeviction'],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('redis-server did not start in 10 s')),
        10_000,
      );
      child.stdout?.on('data', (data: Buffer) => {
        if (data.toString().includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    });
    const queue = new Queue('bench-frontier', { connection: { host: '127.0.0.1', port } });
    return new BullmqPeer(port, queue, child.pid as number, async () => {
      await queue.close();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    });
  }

  /** Adds jobs `fromSize` … `targetSize - 1` (the same URLs the frontier holds). */
  async grow(
    fromSize: number,
    targetSize: number,
    jobOf: (index: number) => { url: string; domain: string },
    budget: Budget,
  ): Promise<void> {
    for (let start = fromSize; start < targetSize; start += 5000) {
      budget.assertLeft();
      const jobs = [];
      for (let index = start; index < Math.min(targetSize, start + 5000); index += 1) {
        jobs.push({ name: 'fetch', data: jobOf(index) });
      }
      await this.queue.addBulk(jobs);
    }
  }

  /**
   * Resolves once Redis has no AOF rewrite running or scheduled. Growing the queue by 900,000 jobs
   * starts one (the file doubled past 64 MB): a forked child rewriting the file for seconds, which
   * ran into the scheduler's start-up and first rows at the 1M stage (its start-up 2.76 s instead of
   * ~2.0, its first row 9,056 URLs/s against 12,554 in the next round). The bench waits for it as
   * it waits for the scheduler's checkpoints after a row, so neither side's background work falls
   * into the other's rows. Bounded: gives up after `timeoutMs` and says so.
   */
  async settled(timeoutMs = 60_000): Promise<void> {
    const client = await this.queue.client;
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const info = await client.info();
      const isBusy = /^aof_rewrite_(in_progress|scheduled):1\r?$/m.test(info);
      if (!isBusy) return;
      if (performance.now() > deadline) {
        log(`  Redis still rewriting its AOF after ${(timeoutMs / 1000).toFixed(0)} s; going on`);
        return;
      }
      await delay(100);
    }
  }

  /**
   * `workerCount` workers each fetching `batchSize` jobs and completing them, until `jobBudget`.
   * The clock runs from the first fetch to the last completion: the workers connect before it
   * starts and close after it stops — a Worker's connections answer `waitUntilReady` after ~10 ms
   * at 4 workers and ~35 ms at 16 (a scratch loop), a tenth of a 10k row at 16 workers, which fell
   * inside BullMQ's rows until the forty-sixth session. The scheduler's workers share undici's pool
   * of keep-alive connections: at most a plain TCP connect each when one timed out between rows.
   */
  async measure(
    workerCount: number,
    batchSize: number,
    jobBudget: number,
    budget: Budget,
  ): Promise<LoadMeasurement> {
    const workers = Array.from(
      { length: workerCount },
      () =>
        new Worker('bench-frontier', null, {
          connection: { host: '127.0.0.1', port: this.port },
          autorun: false,
        }),
    );
    const fetchLatencies: number[] = [];
    let completedCount = 0;
    try {
      await Promise.all(workers.map((worker) => worker.waitUntilReady()));
      const serverCpuBefore = serverCpuOf(this.redisPid);
      const clientCpuBefore = process.cpuUsage();
      const began = performance.now();
      await Promise.all(
        workers.map(async (worker, index) => {
          const token = `bench-worker-${index}`;
          while (completedCount < jobBudget && !budget.isOver) {
            const sent = performance.now();
            const jobs = (
              await Promise.all(
                Array.from({ length: batchSize }, () => worker.getNextJob(token, { block: false })),
              )
            ).filter((job) => job !== undefined);
            fetchLatencies.push(performance.now() - sent);
            if (jobs.length === 0) break;
            await Promise.all(jobs.map((job) => job.moveToCompleted('done', token, false)));
            completedCount += jobs.length;
          }
        }),
      );
      const seconds = (performance.now() - began) / 1000;
      const clientCpuMicroseconds = cpuMicrosecondsSince(clientCpuBefore);
      const serverCpuAfter = serverCpuOf(this.redisPid);
      const sorted = fetchLatencies.sort((left, right) => left - right);
      return {
        urlsPerSecond: completedCount / seconds,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        intervalViolationCount: 0,
        processedCount: completedCount,
        ...serverCpuPerUnit(serverCpuBefore, serverCpuAfter, completedCount),
        clientCpuMicrosecondsPerUrl: clientCpuMicroseconds / Math.max(1, completedCount),
      };
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
    }
  }
}

function ensureRedisServer(): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout;
  if (found.trim() !== '') return found.trim();
  if (process.getuid?.() !== 0) {
    throw new Error(
      'redis-server is missing; install it with `apt-get install -y redis-server` (root)',
    );
  }
  log('installing redis-server (apt-get install -y redis-server)');
  spawnSync('apt-get', ['update'], { stdio: 'ignore' });
  const install = spawnSync('apt-get', ['install', '-y', 'redis-server'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (install.status !== 0) throw new Error('apt-get install -y redis-server failed');
  return 'redis-server';
}
