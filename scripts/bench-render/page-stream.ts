import { failureResult, PageRecord, RenderResult } from './page-record';

export interface RenderedOnce {
  readonly result: RenderResult;
  readonly overLimitAnswerCount?: number;
}

/**
 * Renders `urls` with `concurrency` workers and reports each page as it finishes.
 *
 * Dispatch is host-aware by default, like a crawler's frontier: a worker takes the first pending
 * URL of the host with the fewest renders in flight, so the downloader's per-domain in-flight cap
 * (2) is never what holds a render back while there are hosts enough (16 renders over 8 hosts). `isInListOrder` takes them as
 * listed instead (the many-domain round, where the downloader's politeness must do the holding).
 * Latency runs from the moment a worker takes the URL to the moment its render settled.
 */
export async function renderUrlStream(
  urls: readonly string[],
  concurrency: number,
  renderOne: (url: string) => Promise<RenderedOnce>,
  onRecord: (record: PageRecord) => void,
  options: { readonly isInListOrder?: boolean } = {},
): Promise<PageRecord[]> {
  const pending = [...urls];
  const hostsInFlight = new Map<string, number>();
  const records: PageRecord[] = [];
  const takeNext = (): string | undefined => {
    if (options.isInListOrder) return pending.shift();
    // The first pending URL of the host with the fewest renders in flight.
    let bestIndex = 0;
    let bestLoad = Infinity;
    const seenHosts = new Set<string>();
    for (let index = 0; index < pending.length && bestLoad > 0; index += 1) {
      const host = new URL(pending[index]).host;
      if (seenHosts.has(host)) continue;
      seenHosts.add(host);
      const load = hostsInFlight.get(host) ?? 0;
      if (load < bestLoad) [bestIndex, bestLoad] = [index, load];
    }
    return pending.splice(bestIndex, 1)[0];
  };
  const worker = async () => {
    for (let url = takeNext(); url !== undefined; url = takeNext()) {
      const host = new URL(url).host;
      hostsInFlight.set(host, (hostsInFlight.get(host) ?? 0) + 1);
      const startedAtMs = Date.now();
      let rendered: RenderedOnce;
      try {
        rendered = await renderOne(url);
      } catch (error) {
        rendered = { result: failureResult(error) };
      }
      hostsInFlight.set(host, (hostsInFlight.get(host) ?? 1) - 1);
      const record: PageRecord = { url, startedAtMs, finishedAtMs: Date.now(), ...rendered };
      records.push(record);
      onRecord(record);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return records;
}
