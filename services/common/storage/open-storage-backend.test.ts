import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { OrderedKeyValueBackend } from './ordered-key-value-backend';
import type * as OpenStorageBackendModule from './open-storage-backend';

/*
 * The TiKV module is replaced by a virtual mock: the test must not depend on the real client (being
 * written in parallel) and must observe whether it is loaded at all.
 */
let isTikvModuleLoaded = false;
const connect = jest.fn(async (options: { pdEndpoints: string[] }) => {
  return { backendName: 'tikv', options } as unknown as OrderedKeyValueBackend;
});

function loadFreshModule(): typeof OpenStorageBackendModule {
  jest.resetModules();
  isTikvModuleLoaded = false;
  jest.doMock(
    './tikv/tikv-backend',
    () => {
      isTikvModuleLoaded = true;
      return { TikvBackend: { connect } };
    },
    { virtual: true },
  );
  return jest.requireActual<typeof OpenStorageBackendModule>('./open-storage-backend');
}

describe('storage backend settings from the environment', () => {
  const { storageBackendSettingsFromEnvironment } = loadFreshModule();

  test('defaults to LMDB in ./.data/<service>', () => {
    expect(storageBackendSettingsFromEnvironment('sampler', {})).toEqual({
      backendName: 'lmdb',
      dataDirectory: resolve('.data/sampler'),
    });
    expect(
      storageBackendSettingsFromEnvironment('scheduler', {
        STORAGE_BACKEND: 'lmdb',
        STORAGE_DATA_DIRECTORY: '/var/lib/scheduler',
      }),
    ).toEqual({ backendName: 'lmdb', dataDirectory: '/var/lib/scheduler' });
  });

  test('reads the LMDB sync mode and map size, and refuses nonsense', () => {
    expect(
      storageBackendSettingsFromEnvironment('scheduler', {
        STORAGE_LMDB_SYNC: 'full',
        STORAGE_LMDB_MAP_SIZE_MIB: '1024',
      }),
    ).toMatchObject({ backendName: 'lmdb', syncMode: 'full', mapSizeBytes: 1024 * 1024 ** 2 });
    expect(() =>
      storageBackendSettingsFromEnvironment('scheduler', { STORAGE_LMDB_SYNC: 'sometimes' }),
    ).toThrow(/STORAGE_LMDB_SYNC/);
    expect(() =>
      storageBackendSettingsFromEnvironment('scheduler', { STORAGE_LMDB_MAP_SIZE_MIB: 'lots' }),
    ).toThrow(/STORAGE_LMDB_MAP_SIZE_MIB/);
  });

  test('reads whether LMDB writes behind a journal, leaving it to the service when unset', () => {
    expect(
      storageBackendSettingsFromEnvironment('sampler', { STORAGE_LMDB_WRITE_BEHIND: 'on' }),
    ).toMatchObject({ isWriteBehind: true });
    expect(
      storageBackendSettingsFromEnvironment('scheduler', { STORAGE_LMDB_WRITE_BEHIND: 'off' }),
    ).toMatchObject({ isWriteBehind: false });
    expect(storageBackendSettingsFromEnvironment('scheduler', {})).not.toHaveProperty(
      'isWriteBehind',
      expect.anything(),
    );
    expect(() =>
      storageBackendSettingsFromEnvironment('scheduler', { STORAGE_LMDB_WRITE_BEHIND: 'yes' }),
    ).toThrow(/STORAGE_LMDB_WRITE_BEHIND must be "on" or "off"/);
  });

  test('reads TiKV PD endpoints, including IPv6 literals', () => {
    expect(
      storageBackendSettingsFromEnvironment('downloader', {
        STORAGE_BACKEND: 'tikv',
        TIKV_PD_ENDPOINTS: 'pd-0:2379, [::1]:2379,,10.0.0.3:2380',
      }),
    ).toEqual({ backendName: 'tikv', pdEndpoints: ['pd-0:2379', '[::1]:2379', '10.0.0.3:2380'] });
  });

  test('rejects unknown backends, missing or malformed endpoints and unknown services', () => {
    expect(() =>
      storageBackendSettingsFromEnvironment('sampler', { STORAGE_BACKEND: 'redis' }),
    ).toThrow(/unknown STORAGE_BACKEND "redis"; expected one of: lmdb, tikv/);
    expect(() =>
      storageBackendSettingsFromEnvironment('sampler', { STORAGE_BACKEND: 'tikv' }),
    ).toThrow(/TIKV_PD_ENDPOINTS/);
    for (const endpoints of ['pd-0', 'pd-0:0', 'pd-0:70000', 'http://pd-0:2379']) {
      expect(() =>
        storageBackendSettingsFromEnvironment('sampler', {
          STORAGE_BACKEND: 'tikv',
          TIKV_PD_ENDPOINTS: endpoints,
        }),
      ).toThrow(/is not host:port/);
    }
    expect(() => storageBackendSettingsFromEnvironment('crs' as 'sampler', {})).toThrow(
      /unknown service "crs"/,
    );
  });
});

describe('openStorageBackend', () => {
  test('opens LMDB in the configured directory without loading the TiKV client', async () => {
    const { openStorageBackend } = loadFreshModule();
    const parent = await mkdtemp(join(tmpdir(), 'open-storage-'));
    const dataDirectory = join(parent, 'sampler');
    try {
      const backend = await openStorageBackend({ backendName: 'lmdb', dataDirectory });
      expect(backend.backendName).toBe('lmdb');
      await backend.close();
      expect((await stat(dataDirectory)).isDirectory()).toBe(true);
      expect(isTikvModuleLoaded).toBe(false);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  test('opens LMDB behind a write journal when told to', async () => {
    const { openStorageBackend } = loadFreshModule();
    const dataDirectory = await mkdtemp(join(tmpdir(), 'open-storage-'));
    try {
      const backend = await openStorageBackend({
        backendName: 'lmdb',
        dataDirectory,
        isWriteBehind: true,
      });
      expect(backend.constructor.name).toBe('WriteBehindLmdbBackend');
      await backend.put({ key: Buffer.from('row'), value: Buffer.from('value') });
      await backend.close();
      expect((await stat(join(dataDirectory, 'write-journal'))).isDirectory()).toBe(true);
    } finally {
      await rm(dataDirectory, { recursive: true, force: true });
    }
  });

  test('connects to TiKV through TikvBackend.connect with the PD endpoints', async () => {
    const { openStorageBackend } = loadFreshModule();
    const backend = await openStorageBackend({ backendName: 'tikv', pdEndpoints: ['pd-0:2379'] });
    expect(isTikvModuleLoaded).toBe(true);
    expect(connect).toHaveBeenCalledWith({ pdEndpoints: ['pd-0:2379'] });
    expect(backend.backendName).toBe('tikv');
  });
});
