import puppeteer from 'puppeteer-core';
import { startBenchSite } from './scripts/bench-render/bench-site';
import { BENCH_HOSTS } from './scripts/bench-render/bench-settings';
import { peerLaunchOptions } from './scripts/bench-render/peer-browser-launch';
import { finishRender, instrumentPage, startRecording, InstrumentedPage } from './scripts/bench-render/instrumented-page';
import { renderUrlStream } from './scripts/bench-render/page-stream';
import { readMachineCpuSeconds, readCpuPressureStallMicroseconds, listProcessTree } from './services/downloader/rendering/pool-sizing/proc-stats';
(async () => {
  const site = await startBenchSite(BENCH_HOSTS, 400);
  const urls = site.pages.map(p => p.url);
  const browser = await puppeteer.launch(peerLaunchOptions(BENCH_HOSTS));
  let offset = 0;
  for (const c of (process.argv[2] ?? '2,4,8,12').split(',').map(Number)) {
    const pages: InstrumentedPage[] = await Promise.all(Array.from({ length: c }, async () => instrumentPage(await browser.newPage())));
    const batch = urls.slice(offset, offset + 60); offset = (offset + 60) % 340;
    const m0 = readMachineCpuSeconds(); const s0 = readCpuPressureStallMicroseconds()!; const t0 = Date.now();
    const tree0 = listProcessTree(process.pid).reduce((a, e) => a + e.cpuTicks, 0);
    let lat = 0;
    await renderUrlStream(batch, c, async (url) => {
      const p = pages.pop()!; try { const st = Date.now(); const rec = startRecording(p); const r = await p.page.goto(url, { waitUntil: 'load' }); const res = await finishRender(p, rec, r, st); lat += Date.now() - st; return { result: res }; } finally { pages.push(p); }
    }, () => undefined);
    const m1 = readMachineCpuSeconds(); const s1 = readCpuPressureStallMicroseconds()!; const dt = (Date.now() - t0) / 1000;
    const tree1 = listProcessTree(process.pid).reduce((a, e) => a + e.cpuTicks, 0);
    console.log(`c=${c} p/s=${(60/dt).toFixed(2)} busy=${((m1.busy-m0.busy)/(m1.total-m0.total)).toFixed(2)} stall=${((s1-s0)/1e6/dt).toFixed(2)} treeCpuMs/page=${((tree1-tree0)*10/60).toFixed(0)} lat=${(lat/60).toFixed(0)}`);
    await Promise.all(pages.map(p => p.page.close()));
  }
  await browser.close(); await site.stop();
})();
