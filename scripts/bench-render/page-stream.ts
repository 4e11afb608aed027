import { failureResult, PageRecord, RenderResult } from './page-record';

export interface RenderedOnce {
  readonly result: RenderResult;
  readonly overLimitAnswerCount?: number;
}

export interface RenderUrlStreamOptions {
  /** URLs as listed, not host-aware (the many-domain round: politeness must hold pages back). */
  readonly isInListOrder?: boolean;
  /**
   * Host-aware dispatch only: never more renders of one host in flight than this — a worker with
   * nothing below the cap waits for a render to finish. A frontier leases no more to a domain than
   * its in-flight cap; without it, the end of a list (pages left on a few hosts) sent a third
   * render to a host, and the downloader's 429 for it came with a whole second to wait.
   */
  readonly perHostLimit?: number;
}

/**
 * Renders `urls` with `concurrency` workers and reports each page as it finishes.
 *
 * Dispatch is host-aware by default, like a crawler's frontier: a worker takes the first pending
 * URL of the host with the fewest renders in flight, so the downloader's per-domain in-flight cap
 * (2) is never what holds a render back while there are hosts enough (16 renders over 8 hosts);
 * `perHostLimit` makes it a hard cap. `isInListOrder` takes them as listed instead.
 * Latency runs from the moment a worker takes the URL to the moment its render settled.
 */
export async function renderUrlStream(
  urls: readonly string[],
  concurrency: number,
  renderOne: (url: string) => Promise<RenderedOnce>,
  onRecord: (record: PageRecord) => void,
  options: RenderUrlStreamOptions = {},
): Promise<PageRecord[]> {
  const pending = [...urls];
  const hostsInFlight = new Map<string, number>();
  const perHostLimit = options.perHostLimit ?? Infinity;
  const records: PageRecord[] = [];
  /** Workers waiting for a render to finish (every pending URL's host at its cap). */
  let waitingForSlot: (() => void)[] = [];
  const takeNext = (): string | undefined => {
    if (options.isInListOrder) return pending.shift();
    // The first pending URL of the host with the fewest renders in flight, below the cap.
    let bestIndex = -1;
    let bestLoad = perHostLimit;
    const seenHosts = new Set<string>();
    for (let index = 0; index < pending.length && bestLoad > 0; index += 1) {
      const host = new URL(pending[index]).host;
      if (seenHosts.has(host)) continue;
      seenHosts.add(host);
      const load = hostsInFlight.get(host) ?? 0;
      if (load < bestLoad) [bestIndex, bestLoad] = [index, load];
    }
    return bestIndex < 0 ? undefined : pending.splice(bestIndex, 1)[0];
  };
  const worker = async () => {
    while (pending.length > 0) {
      const url = takeNext();
      if (url === undefined) {
        await new Promise<void>((resolve) => waitingForSlot.push(resolve));
        continue;
      }
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
      const woken = waitingForSlot;
      waitingForSlot = [];
      for (const wake of woken) wake();
      const record: PageRecord = { url, startedAtMs, finishedAtMs: Date.now(), ...rendered };
      records.push(record);
      onRecord(record);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return records;
}
