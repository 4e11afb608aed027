import { resolve } from 'node:path';
import { LmdbBackend, type LmdbSyncMode } from './lmdb-backend';
import { WriteBehindLmdbBackend } from './write-behind/write-behind-lmdb-backend';
import type { BackendName, OrderedKeyValueBackend } from './ordered-key-value-backend';
import { assertServiceName, type ServiceName } from './service-name';

/** Which backend a service uses and how to reach it. */
export type StorageBackendSettings =
  | {
      backendName: 'lmdb';
      dataDirectory: string;
      syncMode?: LmdbSyncMode;
      mapSizeBytes?: number;
      /** Writes go through a journal and reach the rows in background checkpoints (see
       * WriteBehindLmdbBackend); undefined leaves the choice to the service. */
      isWriteBehind?: boolean;
    }
  | { backendName: 'tikv'; pdEndpoints: string[] };

const BACKEND_NAMES: readonly BackendName[] = ['lmdb', 'tikv'];

/** host:port, where host may be a bracketed IPv6 literal. */
const ENDPOINT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

function parsePdEndpoints(text: string | undefined): string[] {
  const endpoints = (text ?? '')
    .split(',')
    .map((endpoint) => endpoint.trim())
    .filter((endpoint) => endpoint.length > 0);
  if (endpoints.length === 0) {
    throw new Error('STORAGE_BACKEND=tikv needs TIKV_PD_ENDPOINTS, e.g. "pd-0:2379,pd-1:2379"');
  }
  for (const endpoint of endpoints) {
    const port = Number(ENDPOINT.exec(endpoint)?.[1]);
    if (!(port >= 1 && port <= 65_535)) {
      throw new Error(`TIKV_PD_ENDPOINTS entry "${endpoint}" is not host:port`);
    }
  }
  return endpoints;
}

function parseSyncMode(text: string | undefined): LmdbSyncMode | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  if (value === 'overlapping' || value === 'full') return value;
  throw new Error(`STORAGE_LMDB_SYNC must be "overlapping" or "full", got "${value}"`);
}

function parseWriteBehind(text: string | undefined): boolean | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new Error(`STORAGE_LMDB_WRITE_BEHIND must be "on" or "off", got "${value}"`);
}

function parseMapSizeBytes(text: string | undefined): number | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  const mebibytes = Number(value);
  if (!Number.isInteger(mebibytes) || mebibytes < 64) {
    throw new Error(`STORAGE_LMDB_MAP_SIZE_MIB must be a whole number ≥ 64, got "${value}"`);
  }
  return mebibytes * 1024 ** 2;
}

/**
 * Reads the storage settings of `service` from the environment:
 *   STORAGE_BACKEND          lmdb (default) or tikv
 *   STORAGE_DATA_DIRECTORY   LMDB environment directory of this service; default ./.data/<service>
 *   STORAGE_LMDB_SYNC        overlapping (default) or full — see LmdbSyncMode
 *   STORAGE_LMDB_MAP_SIZE_MIB  address space reserved for the LMDB map; default 65536 (64 GiB)
 *   STORAGE_LMDB_WRITE_BEHIND  on or off: writes through a journal, rows in background checkpoints;
 *                            default: the service's choice (the scheduler: on)
 *   TIKV_PD_ENDPOINTS        comma-separated PD host:port list; required for tikv
 */
export function storageBackendSettingsFromEnvironment(
  service: ServiceName,
  environment: NodeJS.ProcessEnv = process.env,
): StorageBackendSettings {
  assertServiceName(service);
  const backendName = environment.STORAGE_BACKEND?.trim() || 'lmdb';
  switch (backendName) {
    case 'lmdb':
      return {
        backendName,
        dataDirectory: resolve(environment.STORAGE_DATA_DIRECTORY?.trim() || `.data/${service}`),
        syncMode: parseSyncMode(environment.STORAGE_LMDB_SYNC),
        mapSizeBytes: parseMapSizeBytes(environment.STORAGE_LMDB_MAP_SIZE_MIB),
        isWriteBehind: parseWriteBehind(environment.STORAGE_LMDB_WRITE_BEHIND),
      };
    case 'tikv':
      return { backendName, pdEndpoints: parsePdEndpoints(environment.TIKV_PD_ENDPOINTS) };
    default:
      throw new Error(
        `unknown STORAGE_BACKEND "${backendName}"; expected one of: ${BACKEND_NAMES.join(', ')}`,
      );
  }
}

/**
 * Required on demand so that services running on LMDB never load gRPC and protobuf. The type-only
 * import keeps the call checked against the real TikvBackend without loading it.
 */
function loadTikvBackendModule(): typeof import('./tikv/tikv-backend') {
  return require('./tikv/tikv-backend') as typeof import('./tikv/tikv-backend');
}

export async function openStorageBackend(
  settings: StorageBackendSettings,
): Promise<OrderedKeyValueBackend> {
  switch (settings.backendName) {
    case 'lmdb': {
      const options = { syncMode: settings.syncMode, mapSizeBytes: settings.mapSizeBytes };
      return settings.isWriteBehind === true
        ? WriteBehindLmdbBackend.open(settings.dataDirectory, options)
        : LmdbBackend.open(settings.dataDirectory, options);
    }
    case 'tikv':
      return loadTikvBackendModule().TikvBackend.connect({ pdEndpoints: settings.pdEndpoints });
  }
}
