import { rm } from 'node:fs/promises';

/**
 * fs.rm retries ENOTEMPTY (and EBUSY, EPERM, …) itself, waiting `retryDelay` ms longer each try:
 * 13 tries at 100 ms steps wait up to ~9 s in all.
 */
const RETRIES = { maxRetries: 13, retryDelay: 100 } as const;

/**
 * Removes a test's or a benchmark's work directory once nothing writes into it any more: a stopped
 * downloader's Chromium dies with it, but may still be flushing its profile for a moment
 * (ENOTEMPTY), and a benchmark must not fail its whole run over that moment.
 */
export async function removeWorkDirectory(directory: string): Promise<void> {
  await rm(directory, { recursive: true, force: true, ...RETRIES });
}
