import { DestinationPolicy } from '../egress/destination-policy';
import { refuseNameLookup } from '../egress/egress-test-support';
import { RenderEngine, type RenderEngineOptions } from '../rendering/render-engine';

/**
 * A render engine for tests: it may reach exactly `hosts` (loopback addresses) and resolves no
 * name; `options` adds or overrides the rest (pool size, renderer limit, …). Not started.
 */
export function loopbackRenderEngine(
  hosts: readonly string[],
  options: Partial<Omit<RenderEngineOptions, 'destinationPolicy' | 'hostLookup'>> = {},
): RenderEngine {
  return new RenderEngine({
    destinationPolicy: new DestinationPolicy({ allowedRanges: [...hosts] }),
    hostLookup: refuseNameLookup,
    ...options,
  });
}

/** Renders `url` (waiting for `#content`) and expects a page object, not a failure. */
export async function expectRenderedPage(engine: RenderEngine, url: string): Promise<void> {
  const outcome = await engine.render({
    url,
    shouldRender: true,
    waitSelector: '#content',
    timeoutMs: 15_000,
  });
  expect(outcome.kind).toBe('page');
}
