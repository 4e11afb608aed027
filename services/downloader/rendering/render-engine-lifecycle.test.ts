import { DemoSite, startDemoSite } from '../../../scripts/demo-site/demo-site';
import { DestinationPolicy } from '../egress/destination-policy';
import { refuseNameLookup } from '../egress/egress-test-support';
import { RenderEngine } from './render-engine';
import type { RenderOutcome } from './render-outcome';

// Browser lifecycle: crash recovery and recycling. Its own engine: these tests kill and replace
// browsers, which must not disturb the other engine tests.
let site: DemoSite;
let engine: RenderEngine;

const RECYCLE_AFTER = 3;

beforeAll(async () => {
  site = await startDemoSite({ crawlDelaySeconds: 0 });
  engine = new RenderEngine({
    destinationPolicy: new DestinationPolicy({ allowedRanges: [...site.hosts] }),
    hostLookup: refuseNameLookup,
    concurrency: 2,
    recycleAfterRenderCount: RECYCLE_AFTER,
  });
  await engine.start();
});

afterAll(async () => {
  await engine?.stop();
  await site?.stop();
});

function render(path: string): Promise<RenderOutcome> {
  return engine.render({
    url: `${site.baseUrls[0]}${path}`,
    shouldRender: true,
    timeoutMs: 10_000,
  });
}

function isProcessAlive(processId: number): boolean {
  try {
    process.kill(processId, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const startedAt = Date.now();
  while (!condition()) {
    if (Date.now() - startedAt > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a browser killed mid-render fails the renders in flight with browser_crashed, then recovers', async () => {
  const killedProcessId = engine.browserProcessId() as number;
  expect(killedProcessId).toBeGreaterThan(0);
  const inFlight = [render('/slow?delay_ms=8000'), render('/slow?delay_ms=8000')];
  // Both renders hold a page and their requests reached the origin (still unanswered).
  await waitFor(() => engine.freePageCount === 0, 5000);
  await new Promise((resolve) => setTimeout(resolve, 300));

  const killedAt = Date.now();
  process.kill(killedProcessId, 'SIGKILL');
  const outcomes = await Promise.all(inFlight);
  expect(Date.now() - killedAt).toBeLessThan(3000);
  expect(outcomes).toEqual([
    expect.objectContaining({ kind: 'failed', failReason: 'browser_crashed' }),
    expect.objectContaining({ kind: 'failed', failReason: 'browser_crashed' }),
  ]);

  expect((await render('/articles/1')).kind).toBe('page');
  expect(engine.browserProcessId()).not.toBe(killedProcessId);
  expect(engine.statistics().browserLossCount).toBe(1);
  expect(engine.freePageCount).toBe(2);
});

test(`the browser is replaced after ${RECYCLE_AFTER} renders without failing any`, async () => {
  const launchesBefore = engine.statistics().browserLaunchCount;
  const processIds = new Set<number>();
  for (let round = 0; round < 2; round += 1) {
    const outcomes = await Promise.all([render('/about'), render('/articles/2'), render('/')]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['page', 'page', 'page']);
    processIds.add(engine.browserProcessId() as number);
  }
  expect(engine.statistics().browserLaunchCount - launchesBefore).toBeGreaterThanOrEqual(1);
  expect(engine.statistics().browserLossCount).toBe(1); // recycling is not a loss
  // Retired browsers are closed once their last render returned.
  const current = engine.browserProcessId();
  await waitFor(
    () => [...processIds].every((processId) => processId === current || !isProcessAlive(processId)),
    5000,
  );
});
