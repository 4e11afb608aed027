import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeBackendConformance } from '../conformance/backend-conformance';
import type { CheckpointSettings } from './checkpointer';
import { WriteBehindLmdbBackend } from './write-behind-lmdb-backend';

function openedWith(checkpoint: Partial<CheckpointSettings>) {
  return async () => {
    const directory = await mkdtemp(join(tmpdir(), 'write-behind-conformance-'));
    const backend = await WriteBehindLmdbBackend.open(directory, { checkpoint });
    return {
      backend,
      cleanup: async () => {
        await backend.close();
        await rm(directory, { recursive: true, force: true });
      },
    };
  };
}

// Every row read from the overlay: no checkpoint runs while a test does.
describeBackendConformance(
  'lmdb write-behind, rows in the overlay',
  openedWith({ rowCountThreshold: 1e9, maxDelayMs: 3_600_000 }),
);

// Checkpoints all the time: rows split between the overlay and the store, moving under the test.
describeBackendConformance(
  'lmdb write-behind, checkpointing constantly',
  openedWith({ rowCountThreshold: 2, maxDelayMs: 1 }),
);
