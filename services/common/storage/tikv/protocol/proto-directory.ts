import { existsSync } from 'node:fs';
import path from 'node:path';

/** Overrides the search below, e.g. for a bundled deployment that ships the .proto files elsewhere. */
export const PROTO_DIRECTORY_ENV = 'TIKV_PROTO_DIR';

const PROTO_SUBPATH = path.join('services', 'common', 'storage', 'tikv', 'proto');
const MARKER_FILE = 'tikvpb.proto';

/**
 * Finds the folder holding our hand-written .proto files.
 *
 * Why a search: `tsc` does not copy .proto files into `dist/`, so the compiled module cannot rely on
 * `__dirname/../proto` alone. From source (ts-jest, tsx) the sibling folder exists; from
 * `dist/services/common/storage/tikv/protocol` we walk up to the repository root and use the source
 * copy, which is always deployed alongside `dist/` in this repository.
 */
export function resolveProtoDirectory(startDirectory: string = __dirname): string {
  const override = process.env[PROTO_DIRECTORY_ENV];
  if (override) {
    if (!existsSync(path.join(override, MARKER_FILE))) {
      throw new Error(`${PROTO_DIRECTORY_ENV}=${override} does not contain ${MARKER_FILE}`);
    }
    return override;
  }
  const sibling = path.join(startDirectory, '..', 'proto');
  if (existsSync(path.join(sibling, MARKER_FILE))) return sibling;

  for (let dir = startDirectory; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, PROTO_SUBPATH);
    if (existsSync(path.join(candidate, MARKER_FILE))) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(
    `TiKV .proto files not found near ${startDirectory}; set ${PROTO_DIRECTORY_ENV} to the folder holding ${MARKER_FILE}`,
  );
}
