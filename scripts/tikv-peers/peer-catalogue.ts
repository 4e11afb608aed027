import path from 'node:path';
import { PeerToolchainPaths } from './peer-toolchain';

/** One operation a peer runs, and what the double must have received while it ran. */
export interface PeerOperation {
  name: string;
  /**
   * gRPC methods (as the double's request log names them; PD's prefixed "PD.") that must reach
   * the double during the operation: a PASS without them would mean the client answered without
   * asking the server.
   */
  wire: readonly string[];
}

export interface PeerLaunch {
  file: string;
  args: string[];
}

export interface PeerDefinition {
  name: string;
  /** The package and version under test, as the registry names them. */
  source: string;
  toolchain: 'go' | 'python';
  operations: readonly PeerOperation[];
  /** Why operations are missing, when some are. */
  limits?: string;
  launch(paths: PeerToolchainPaths, pdEndpoints: readonly string[]): PeerLaunch;
}

const op = (name: string, ...wire: string[]): PeerOperation => ({ name, wire });

const put = op('put', 'RawPut', 'RawGet');
const get = op('get', 'RawGet');
const batchPut = op('batch_put', 'RawBatchPut');
const batchGet = op('batch_get', 'RawBatchGet');
const batchDelete = op('batch_delete', 'RawBatchDelete');
const scan = op('scan', 'RawScan');
const cas = op('cas', 'RawCompareAndSwap');
const ttl = op('ttl', 'RawPut', 'RawGetKeyTTL');
const deleteRange = op('delete_range', 'RawDeleteRange');

const PYTHON_DIR = path.join(__dirname, 'python');

/**
 * The official clients run against the double, each through the same sequence of operations with
 * the same keys (spread over the double's three regions), as far as its API reaches.
 */
export const PEERS: readonly PeerDefinition[] = [
  {
    name: 'client-go',
    source: 'github.com/tikv/client-go/v2 v2.0.4 (rawkv, atomic mode)',
    toolchain: 'go',
    operations: [
      put,
      get,
      batchPut,
      batchGet,
      batchDelete,
      scan,
      cas,
      ttl,
      deleteRange,
      op('tso', 'PD.Tso'),
      // A store leaves one request unanswered: client-go sends it requests again only once its
      // gRPC health service answers SERVING.
      op('store_recovery', 'Health/Check'),
    ],
    launch: (paths, pdEndpoints) => ({
      file: paths.goPeerBinary,
      args: ['-pd', pdEndpoints.join(',')],
    }),
  },
  {
    name: 'tikv-client',
    source: 'PyPI tikv-client 0.0.4 (binding over tikv/client-rust)',
    toolchain: 'python',
    operations: [put, get, batchPut, batchGet, batchDelete, scan, deleteRange],
    limits: 'no compare-and-swap and no TTL in its Python API',
    launch: (paths, pdEndpoints) => ({
      file: paths.python,
      args: [path.join(PYTHON_DIR, 'tikv_client_peer.py'), '--pd', pdEndpoints.join(',')],
    }),
  },
  {
    name: 'tikv-python',
    source: 'PyPI tikv-python 0.1.1 (pure Python over grpcio, atomic mode)',
    toolchain: 'python',
    operations: [put, get, batchPut, batchGet, batchDelete, scan, cas, ttl, deleteRange],
    limits: 'refuses delete_range in atomic mode: a second, plain client runs it',
    launch: (paths, pdEndpoints) => ({
      file: paths.python,
      args: [path.join(PYTHON_DIR, 'tikv_python_peer.py'), '--pd', pdEndpoints.join(',')],
    }),
  },
];
