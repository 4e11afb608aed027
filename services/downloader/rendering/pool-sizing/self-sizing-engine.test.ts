import { DemoSite, startDemoSite } from '../../../../scripts/demo-site/demo-site';
import { DestinationPolicy } from '../../egress/destination-policy';
import { refuseNameLookup } from '../../egress/egress-test-support';
import { RenderEngine } from '../render-engine';
import type { LoadReader, LoadReading } from './load-reading';
import type { PoolSizeChange } from './page-pool-sizer';

// The self-sizing pool on a real engine (real Chromium, real pages opened and closed); only the
// machine's readings and the event loop's delay are made up — an idle machine with plenty of
// memory — so the test decides what the sizer sees.
let site: DemoSite;
let engine: RenderEngine;
const brake = { value: 4 };
const changes: PoolSizeChange[] = [];

/** A machine 10 % busy, all of it ours, with 20 GiB free. */
function idleMachine(): LoadReader {
  let reading: LoadReading | undefined;
  return () => {
    const atMs = Date.now();
    const seconds = reading === undefined ? 0 : (atMs - reading.atMs) / 1000;
    reading = {
      atMs,
      machineBusySeconds: (reading?.machineBusySeconds ?? 0) + 0.2 * seconds,
      machineTotalSeconds: (reading?.machineTotalSeconds ?? 0) + 2 * seconds,
      treeCpuSeconds: (reading?.treeCpuSeconds ?? 0) + 0.2 * seconds,
      cpuStallMicroseconds: 0,
      memory: { availableBytes: 20 * 1024 ** 3, totalBytes: 24 * 1024 ** 3 },
      treePssBytes: 500 * 1024 ** 2,
      treeProcessCount: 6,
    };
    return reading;
  };
}

beforeAll(async () => {
  site = await startDemoSite({ crawlDelaySeconds: 0 });
  engine = new RenderEngine({
    destinationPolicy: new DestinationPolicy({ allowedRanges: [...site.hosts] }),
    hostLookup: refuseNameLookup,
    poolSizing: {
      minSize: 1,
      initialSize: 1,
      brake: () => brake.value,
      hardMaxSize: 64,
      readLoad: idleMachine(),
      eventLoopLag: { readPercentile90Ms: () => 5, stop: () => undefined },
      sampleIntervalMs: 100,
    },
    observer: { poolResized: (change) => changes.push(change) },
  });
  await engine.start();
});

afterAll(async () => {
  await engine?.stop();
  await site?.stop();
});

test('grows while renders wait for a page and the CPU has room, up to the brake', async () => {
  expect(engine.concurrency).toBe(1);
  let mostBusy = 0;
  const watch = setInterval(() => {
    mostBusy = Math.max(mostBusy, engine.statistics().busyPageCount);
  }, 20);
  const outcomes = await Promise.all(
    [1, 2, 3, 4, 5, 6].map((index) =>
      engine.render({
        url: `${site.baseUrls[index % site.baseUrls.length]}/slow?delay_ms=1500&n=${index}`,
        shouldRender: true,
        waitSelector: null,
        timeoutMs: 15_000,
      }),
    ),
  );
  clearInterval(watch);
  expect(outcomes.map((outcome) => outcome.kind)).toEqual(Array(6).fill('page'));
  expect(engine.concurrency).toBe(4);
  expect(mostBusy).toBeGreaterThanOrEqual(3); // the new pages really rendered side by side
  expect(changes.map((change) => change.reason)).toContain('processor_headroom');
  expect(engine.poolSizingStatus()).toMatchObject({ size: 4, maxSize: 4, isSelfSizing: true });
}, 60_000);

test('a lowered brake shrinks it at once and rendering goes on', async () => {
  brake.value = 2;
  engine.brakeChanged();
  expect(engine.concurrency).toBe(2);
  expect(engine.poolSizingStatus().lastChange).toMatchObject({
    reason: 'brake_lowered',
    fromSize: 4,
    toSize: 2,
  });
  const outcome = await engine.render({
    url: `${site.baseUrls[0]}/about`,
    shouldRender: true,
    waitSelector: null,
    timeoutMs: 10_000,
  });
  expect(outcome.kind).toBe('page');
  expect(engine.statistics().freePageCount).toBe(2);
});
