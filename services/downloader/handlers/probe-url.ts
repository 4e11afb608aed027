import type { DownloaderHandlers } from '../../../generated/downloader';
import type { DownloaderContext } from '../context';

/** POST /v1/probe — Probe whether a domain's origin answers, for the scheduler's circuit breaker (entry C). */
export function createProbeUrlHandler(context: DownloaderContext): DownloaderHandlers['probeUrl'] {
  return async ({ body }) => context.core.probeEntry.probe(body);
}
