/**
 * Child process of lmdb-crash-durability.test.ts: writes to LMDB until it is killed and prints
 * `ack <n>` once the write of row n has resolved. Alternates plain puts and compare-and-swaps so
 * both write paths are covered. Exits by itself after a deadline in case the parent never kills it.
 *
 * With `write-behind` it writes through WriteBehindLmdbBackend, checkpointing every few hundred
 * rows, so the kill lands among journal appends and checkpoints alike.
 *
 * Usage: node --require tsx/cjs lmdb-crash-writer.ts <directory> [write-behind]
 */
import { writeLineBlocking } from '../../testing/crash-child';
import { LmdbBackend } from '../lmdb-backend';
import type { OrderedKeyValueBackend } from '../ordered-key-value-backend';
import { WriteBehindLmdbBackend } from '../write-behind/write-behind-lmdb-backend';

const CONCURRENT_WRITERS = 32;
const DEADLINE_MS = 20_000;

export function crashRowKey(index: number): Buffer {
  return Buffer.from(`burst-${String(index).padStart(7, '0')}`);
}

export function crashRowValue(index: number): Buffer {
  return Buffer.from(`value-${index}`);
}

export type CrashWriterMode = 'direct' | 'write-behind';

function openBackend(directory: string, mode: CrashWriterMode): Promise<OrderedKeyValueBackend> {
  return mode === 'write-behind'
    ? WriteBehindLmdbBackend.open(directory, {
        checkpoint: { rowCountThreshold: 300, maxDelayMs: 20 },
      })
    : LmdbBackend.open(directory);
}

async function main(directory: string, mode: CrashWriterMode): Promise<void> {
  const backend = await openBackend(directory, mode);
  const deadline = Date.now() + DEADLINE_MS;
  let nextIndex = 0;
  const writer = async () => {
    while (Date.now() < deadline) {
      const index = nextIndex++;
      if (index % 2 === 0) {
        await backend.put({ key: crashRowKey(index), value: crashRowValue(index) });
      } else {
        await backend.compareAndSwap(crashRowKey(index), undefined, crashRowValue(index));
      }
      // Synchronous write: once it returns, the line is in the pipe even if we die next.
      writeLineBlocking(`ack ${index}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_WRITERS }, writer));
  await backend.close();
}

if (require.main === module) {
  void main(process.argv[2], process.argv[3] === 'write-behind' ? 'write-behind' : 'direct');
}
