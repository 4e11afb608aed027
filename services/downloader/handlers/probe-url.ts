import type { DownloaderHandlers } from '../../../generated/downloader';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { DownloaderContext } from '../context';

/** POST /v1/probe — Probe whether a domain's origin answers, for the scheduler's circuit breaker. */
export function createProbeUrlHandler(_context: DownloaderContext): DownloaderHandlers['probeUrl'] {
  return async () => {
    throw notImplemented('probeUrl');
  };
}
