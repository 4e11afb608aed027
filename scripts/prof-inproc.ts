import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
import { readSettings } from '../services/common/config/settings';
import { LmdbBackend } from '../services/common/storage/lmdb-backend';
import { openServiceKeyspace } from '../services/common/storage/service-keyspace';
import { assembleFrontier } from '../services/scheduler/frontier/assemble-frontier';
import { rebuildFrontierMemory } from '../services/scheduler/frontier/frontier-startup';
import { frontierSettingsOf, SCHEDULER_SETTINGS } from '../services/scheduler/scheduler-settings';
import { BenchCorpus } from './bench-frontier/bench-corpus';

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'inproc-'));
  cpSync(process.env.DATA as string, dir, { recursive: true });
  const backend = await LmdbBackend.open(join(dir, 'scheduler'));
  const registry = new Registry();
  const parts = assembleFrontier({ keyspace: openServiceKeyspace('scheduler', backend), clock: { nowMs: () => Date.now() }, settings: { ...frontierSettingsOf(readSettings(SCHEDULER_SETTINGS, {}, {})), domainInFlightCap: 2 }, logger: pino({ level: 'silent' }), registry, probe: undefined, isBatchAtomic: true });
  let t = process.hrtime.bigint();
  await rebuildFrontierMemory(parts.memory);
  console.log('rebuild ms', Number(process.hrtime.bigint() - t) / 1e6);
  const corpus = new BenchCorpus(100_000, 1000, 5);
  const commitTimes: number[] = [];
  const original = parts.commits.commit.bind(parts.commits);
  (parts.commits as any).commit = (batch: any) => { const t1 = process.hrtime.bigint(); const p = original(batch); p.then(() => commitTimes.push(Number(process.hrtime.bigint() - t1) / 1e6), () => undefined); return p; };
  process.on('exit', () => { commitTimes.sort((a, b) => a - b); console.log('commit ms p50', commitTimes[Math.floor(commitTimes.length / 2)]?.toFixed(2), 'p90', commitTimes[Math.floor(commitTimes.length * 0.9)]?.toFixed(2), 'n', commitTimes.length); });
  const serial = { next: 1e9 };
  const phases = { lease: 0n, report: 0n };
  let urls = 0;
  const cpu0 = process.cpuUsage();
  const until = Date.now() + Number(process.env.SECONDS ?? 10) * 1000;
  await Promise.all(Array.from({ length: 4 }, async (_, w) => {
    while (Date.now() < until) {
      let t0 = process.hrtime.bigint();
      const lease = await parts.leaseIssuer.lease({ workerId: `w${w}`, taskCount: 50, leaseTtlSeconds: 120, waitMs: 0 });
      phases.lease += process.hrtime.bigint() - t0;
      if (lease.task_list.length === 0) { await new Promise((r) => setTimeout(r, 5)); continue; }
      const request = { lease_id: lease.lease_id, worker_id: lease.worker_id, result_list: corpus.reportOf(lease, serial, 100000) };
      t0 = process.hrtime.bigint();
      await parts.reportApplier.report(request);
      phases.report += process.hrtime.bigint() - t0;
      urls += lease.task_list.length;
    }
  }));
  const cpu = process.cpuUsage(cpu0);
  console.log(`urls ${urls}, ${(urls / Number(process.env.SECONDS ?? 10)).toFixed(0)}/s, cpu/url ${((cpu.user + cpu.system) / urls).toFixed(0)} us (report building included), lease wall/url ${(Number(phases.lease) / 1000 / urls).toFixed(0)} us, report wall/url ${(Number(phases.report) / 1000 / urls).toFixed(0)} us`);
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === 'scheduler_commit_batch_count') as any;
  console.log('commits', metric.values.find((v: any) => v.metricName.endsWith('_count')).value, 'batches', metric.values.find((v: any) => v.metricName.endsWith('_sum')).value);
  await backend.close();
}
main();
