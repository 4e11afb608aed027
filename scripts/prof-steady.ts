import { mkdtempSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbBackend } from '../services/common/storage/lmdb-backend';
import { Budget, log } from './bench-frontier/bench-log';
import { BenchCorpus } from './bench-frontier/bench-corpus';
import { formatProfileSummary, summarizeCpuProfile } from './bench-frontier/cpu-profile-summary';
import { growFrontier } from './bench-frontier/frontier-growth';
import { cpuMillisecondsOf, measureScheduler } from './bench-frontier/scheduler-load';
import { BENCH_TOKEN, startBenchScheduler } from './bench-frontier/scheduler-process';

async function main() {
  const size = Number(process.env.SIZE ?? 100000);
  const corpus = new BenchCorpus(100_000, 1000, 5);
  const budget = new Budget(900);
  const dir = process.env.DATA ?? mkdtempSync(join(tmpdir(), 'prof-'));
  if (!process.env.DATA) {
    const backend = await LmdbBackend.open(join(dir, 'scheduler'));
    await growFrontier(backend, corpus, 0, size, budget);
    await backend.close();
  }
  const prof = join(dir, 'prof-' + Date.now()); mkdirSync(prof);
  const s = await startBenchScheduler({ dataDirectory: dir, profileDirectory: process.env.NOPROF ? undefined : prof });
  log(`up ${s.processStartSeconds.toFixed(1)} frontier ${s.frontierLoadSeconds.toFixed(2)}`);
  for (const w of (process.env.WORKERS ?? '4,8').split(',').map(Number)) {
    const cpuBefore = cpuMillisecondsOf(s.running.child.pid as number);
    const m = await measureScheduler({ url: s.running.url, token: BENCH_TOKEN, corpus, workerCount: w, urlBudget: Number(process.env.URLS ?? 20000), frontierSize: size, budget });
    const cpuMs = cpuMillisecondsOf(s.running.child.pid as number) - cpuBefore;
    log(`${w} workers: ${m.urlsPerSecond.toFixed(0)} URLs/s p50 ${m.p50Ms.toFixed(1)} p99 ${m.p99Ms.toFixed(1)} viol ${m.intervalViolationCount} cpu/url ${(cpuMs * 1000 / m.processedCount).toFixed(0)} us`);
  }
  await s.running.stop(30000);
  if (process.env.NOPROF) return;
  const files = readdirSync(prof).map((f) => join(prof, f));
  const sums = files.map((f) => summarizeCpuProfile(f, { root: process.cwd(), lineCount: Number(process.env.LINES ?? 45), inclusivePattern: /services\// })).sort((a, b) => b.totalMilliseconds - a.totalMilliseconds);
  console.log(formatProfileSummary(sums[0], 'steady'));
  console.log('data dir', dir);
}
main();
