import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeBackendConformance } from './conformance/backend-conformance';
import { LmdbBackend } from './lmdb-backend';

describeBackendConformance('lmdb', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'lmdb-conformance-'));
  const backend = await LmdbBackend.open(directory);
  return {
    backend,
    cleanup: async () => {
      await backend.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
});
