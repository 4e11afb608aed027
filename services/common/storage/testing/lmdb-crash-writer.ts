/**
 * Child process of lmdb-crash-durability.test.ts: writes to LMDB until it is killed and prints
 * `ack <n>` once the write of row n has resolved. Alternates plain puts and compare-and-swaps so
 * both write paths are covered. Exits by itself after a deadline in case the parent never kills it.
 *
 * Usage: node --require tsx/cjs lmdb-crash-writer.ts <directory>
 */
import { writeSync } from 'node:fs';
import { LmdbBackend } from '../lmdb-backend';

const CONCURRENT_WRITERS = 32;
const DEADLINE_MS = 20_000;

export function crashRowKey(index: number): Buffer {
  return Buffer.from(`burst-${String(index).padStart(7, '0')}`);
}

export function crashRowValue(index: number): Buffer {
  return Buffer.from(`value-${index}`);
}

async function main(directory: string): Promise<void> {
  const backend = await LmdbBackend.open(directory);
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
      writeSync(1, `ack ${index}\n`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_WRITERS }, writer));
  await backend.close();
}

if (require.main === module) {
  void main(process.argv[2]);
}
