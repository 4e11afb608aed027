import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_FILE } from '../gate/contract-model';
import { FROZEN_CONTRACTS_DIRECTORY, OPENAPI_DIRECTORY } from '../gate/gate-context';

/*
 * Frozen contracts: byte copies of CONTRACT.md and openapi/*.yaml as they stood when a version was
 * signed off, committed under openapi/frozen/<version>/ — CI runs on a fresh clone that may have no
 * tags or history, so the baseline travels with the repository. The naming gate and code
 * generation never read them; `npm run contract:diff` compares the current contract with the
 * newest one.
 */

export const FROZEN_MANIFEST_FILE = 'frozen.json';
const VERSION = /^v(\d+)(?:\.(\d+))?(?:\.(\d+))?$/;

export interface FrozenManifest {
  version: string;
  frozen_at: string;
  /** The commit the contract was copied from, `+dirty` when the work tree had changes. */
  source_commit: string | null;
}

export interface FrozenContract {
  version: string;
  /** Repository-relative: `openapi/frozen/v1`. */
  directory: string;
  manifest: FrozenManifest | undefined;
}

/** The frozen copy is missing or unusable (exit code 2 of the commands). */
export class FrozenContractError extends Error {}

export function isContractVersion(version: string): boolean {
  return VERSION.test(version);
}

/** v1 < v1.1 < v1.1.1 < v2. */
export function compareContractVersions(left: string, right: string): number {
  const parts = (version: string) =>
    (VERSION.exec(version) ?? []).slice(1, 4).map((part) => Number(part ?? 0));
  const [a, b] = [parts(left), parts(right)];
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

export function listFrozenContracts(root: string): FrozenContract[] {
  const base = join(root, FROZEN_CONTRACTS_DIRECTORY);
  if (!existsSync(base)) return [];
  return readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && isContractVersion(entry.name))
    .map((entry) => frozenContract(root, entry.name))
    .sort((left, right) => compareContractVersions(left.version, right.version));
}

/** The named version, or the newest when none is named. */
export function findFrozenContract(root: string, version?: string): FrozenContract {
  const all = listFrozenContracts(root);
  const found = version === undefined ? all.at(-1) : all.find((item) => item.version === version);
  if (found === undefined) {
    const known = all.map((item) => item.version).join(', ') || 'none';
    throw new FrozenContractError(
      `no frozen contract${version === undefined ? '' : ` ${version}`} under ${FROZEN_CONTRACTS_DIRECTORY}/ (frozen: ${known}); ` +
        'freeze the signed-off contract with `npm run contract:freeze -- <version>`',
    );
  }
  if (!existsSync(join(root, found.directory, CONTRACT_FILE))) {
    throw new FrozenContractError(`${found.directory}/${CONTRACT_FILE} is missing`);
  }
  return found;
}

function frozenContract(root: string, version: string): FrozenContract {
  const directory = `${FROZEN_CONTRACTS_DIRECTORY}/${version}`;
  const manifestPath = join(root, directory, FROZEN_MANIFEST_FILE);
  const manifest = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as FrozenManifest)
    : undefined;
  return { version, directory, manifest };
}

/** The OpenAPI documents of a contract: the `*.yaml` files directly in `openapiDirectory`. */
export function openapiDocuments(root: string, openapiDirectory: string): string[] {
  const absolute = join(root, openapiDirectory);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Copies CONTRACT.md and openapi/*.yaml to openapi/frozen/<version>/, replacing what was frozen
 * under that version before, and writes the manifest. Returns the directory.
 */
export function writeFrozenContract(
  root: string,
  version: string,
  clock: () => Date = () => new Date(),
): FrozenContract {
  const directory = `${FROZEN_CONTRACTS_DIRECTORY}/${version}`;
  const target = join(root, directory);
  const commit = sourceCommit(root);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  cpSync(join(root, CONTRACT_FILE), join(target, CONTRACT_FILE));
  for (const document of openapiDocuments(root, OPENAPI_DIRECTORY)) {
    cpSync(join(root, OPENAPI_DIRECTORY, document), join(target, document));
  }
  const manifest: FrozenManifest = {
    version,
    frozen_at: clock()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z'),
    source_commit: commit,
  };
  writeFileSync(join(target, FROZEN_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return { version, directory, manifest };
}

function sourceCommit(root: string): string | null {
  try {
    const git = (args: string[]) =>
      execFileSync('git', args, {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    const commit = git(['rev-parse', 'HEAD']).trim();
    const isDirty =
      git([
        'status',
        '--porcelain',
        '--',
        CONTRACT_FILE,
        `:(glob)${OPENAPI_DIRECTORY}/*.yaml`,
      ]).trim() !== '';
    return isDirty ? `${commit}+dirty` : commit;
  } catch {
    return null;
  }
}
