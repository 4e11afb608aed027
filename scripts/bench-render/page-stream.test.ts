import { renderUrlStream, type RenderedOnce, type RenderUrlStreamOptions } from './page-stream';

const rendered: RenderedOnce = { result: { isSuccess: true, xhrUrls: [], linkCount: 0 } };

/** Renders that finish when the test lets them, recording how many of each host ran at once. */
function controlledRenders() {
  const inFlightByHost = new Map<string, number>();
  const peakByHost = new Map<string, number>();
  const finishers: (() => void)[] = [];
  const renderOne = (url: string) => {
    const host = new URL(url).host;
    const load = (inFlightByHost.get(host) ?? 0) + 1;
    inFlightByHost.set(host, load);
    peakByHost.set(host, Math.max(peakByHost.get(host) ?? 0, load));
    return new Promise<RenderedOnce>((resolve) =>
      finishers.push(() => {
        inFlightByHost.set(host, (inFlightByHost.get(host) ?? 1) - 1);
        resolve(rendered);
      }),
    );
  };
  /** Finishes the oldest render still running, then lets the workers take their next URLs. */
  const finishOldest = async () => {
    finishers.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { renderOne, peakByHost, finishers, finishOldest };
}

/** Two hosts' worth of pages up front, then the rest of the list on one host. */
const urls = [
  'http://127.0.0.11/a1',
  'http://127.0.0.12/b1',
  ...Array.from({ length: 6 }, (_, index) => `http://127.0.0.11/a${index + 2}`),
];

async function drain(stream: Promise<unknown>, finishOldest: () => Promise<void>): Promise<void> {
  let isDone = false;
  void stream.then(() => (isDone = true));
  for (let step = 0; step < 100 && !isDone; step += 1) await finishOldest();
  expect(isDone).toBe(true);
}

/** The stream over `urls` on these renders, and the URLs in the order they were reported. */
function streamOf(
  renders: ReturnType<typeof controlledRenders>,
  workerCount: number,
  options: RenderUrlStreamOptions,
): { stream: Promise<unknown>; records: string[] } {
  const records: string[] = [];
  const stream = renderUrlStream(
    urls,
    workerCount,
    renders.renderOne,
    (record) => records.push(record.url),
    options,
  );
  return { stream, records };
}

describe('renderUrlStream', () => {
  it('keeps a host at its cap when the pages left are all on that host, and renders them all', async () => {
    const renders = controlledRenders();
    const { stream, records } = streamOf(renders, 6, { perHostLimit: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    // Six workers, but only two renders of 127.0.0.11 and one of 127.0.0.12 may start.
    expect(renders.finishers).toHaveLength(3);
    await drain(stream, renders.finishOldest);
    expect(renders.peakByHost.get('127.0.0.11')).toBe(2);
    expect([...records].sort()).toEqual([...urls].sort());
  });

  it('without a cap sends the end of the list to one host as fast as workers free up', async () => {
    const renders = controlledRenders();
    const { stream } = streamOf(renders, 6, {});
    await new Promise((resolve) => setImmediate(resolve));
    expect(renders.finishers).toHaveLength(6);
    await drain(stream, renders.finishOldest);
    expect(renders.peakByHost.get('127.0.0.11')).toBe(6);
  });

  it('takes the list in order when told to, whatever the cap', async () => {
    const renders = controlledRenders();
    const { stream, records } = streamOf(renders, 1, { isInListOrder: true, perHostLimit: 1 });
    await drain(stream, renders.finishOldest);
    expect(records).toEqual(urls);
  });
});
