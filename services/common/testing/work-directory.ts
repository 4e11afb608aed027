import { rm } from 'node:fs/promises';
import { sleep } from '../backoff/abortable-sleep';

/**
 * Removes a test's or a benchmark's work directory once nothing writes into it any more: a stopped
 * downloader's Chromium dies with it, but may still be flushing its profile for a moment
 * (ENOTEMPTY), and a benchmark must not fail its whole run over that moment.
 */
export async function removeWorkDirectory(directory: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await rm(directory, { recursive: true, force: true });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(250);
    }
  }
}
