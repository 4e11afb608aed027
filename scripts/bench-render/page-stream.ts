import { failureResult, PageRecord, RenderResult } from './page-record';

export interface RenderedOnce {
  readonly result: RenderResult;
  readonly overLimitAnswerCount?: number;
}

/**
 * Renders `urls` with `concurrency` workers and reports each page as it finishes.
 *
 * Dispatch is host-aware by default, like a crawler's frontier: a worker takes the first pending
 * URL whose host has nothing in flight (else simply the first pending one), so a per-domain limit
 * of one request at a time is never what holds a render back. `isInListOrder` takes them as
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
    const index = pending.findIndex((url) => !hostsInFlight.get(new URL(url).host));
    return pending.splice(Math.max(index, 0), 1)[0];
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
