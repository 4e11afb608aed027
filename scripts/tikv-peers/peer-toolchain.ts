import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runInstallStep } from './install-step';

const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..');
const GO_SOURCE_DIR = path.join(__dirname, 'go');
const PYTHON_REQUIREMENTS = path.join(__dirname, 'python', 'requirements.txt');
const INSTALL_TIMEOUT_MS = 10 * 60_000;

/** Where the peers live once built: everything under .tools/tikv-peers (gitignored). */
export interface PeerToolchainPaths {
  root: string;
  goModuleCache: string;
  goBuildCache: string;
  goPeerBinary: string;
  venv: string;
  python: string;
}

export function peerToolchainPaths(): PeerToolchainPaths {
  const root = path.join(REPOSITORY_ROOT, '.tools', 'tikv-peers');
  const venv = path.join(root, 'venv');
  return {
    root,
    goModuleCache: path.join(root, 'go', 'mod'),
    goBuildCache: path.join(root, 'go', 'build'),
    goPeerBinary: path.join(root, 'go', 'bin', 'tikv-peer-go'),
    venv,
    python: path.join(venv, 'bin', 'python'),
  };
}

export interface InstallOutcome {
  toolchain: 'go' | 'python';
  /** True when the cached build matched the sources and nothing ran. */
  cached: boolean;
  durationMs: number;
}

/**
 * Builds the Go peer (client-go v2.0.4, modules from the Go module proxy) unless the cached binary
 * was built from the same sources by the same Go. Modules and build cache stay under .tools, so a
 * second run compiles nothing; `-mod=readonly` holds the build to the committed go.sum.
 */
export async function ensureGoPeer(
  paths: PeerToolchainPaths,
  log: (line: string) => void,
): Promise<InstallOutcome> {
  const started = Date.now();
  const goVersion = commandOutput('go', ['env', 'GOVERSION'], 'Go is not installed');
  const sources = (await readdir(GO_SOURCE_DIR)).filter(
    (file) => file.endsWith('.go') || file === 'go.mod' || file === 'go.sum',
  );
  const fingerprint = await fingerprintOf(
    [goVersion],
    sources.map((file) => path.join(GO_SOURCE_DIR, file)),
  );
  const stamp = `${paths.goPeerBinary}.fingerprint`;
  if (existsSync(paths.goPeerBinary) && (await readIfExists(stamp)) === fingerprint) {
    return { toolchain: 'go', cached: true, durationMs: Date.now() - started };
  }
  await mkdir(path.dirname(paths.goPeerBinary), { recursive: true });
  const partial = `${paths.goPeerBinary}.partial`;
  const downloads = existsSync(paths.goModuleCache) ? '' : ' (first run: ~220 MB of modules)';
  await runInstallStep(
    {
      label: `building the client-go peer with ${goVersion}${downloads}`,
      command: 'go',
      // -v names each package as it is compiled: the progress line shows how far the build is.
      args: ['build', '-v', '-mod=readonly', '-trimpath', '-o', partial, '.'],
      cwd: GO_SOURCE_DIR,
      env: {
        ...process.env,
        GOMODCACHE: paths.goModuleCache,
        GOCACHE: paths.goBuildCache,
        // Module files writable, so that .tools can be deleted like any folder; no VCS stamp, so
        // a copy of the sources without .git builds too.
        GOFLAGS: '-modcacherw -buildvcs=false',
        // Build with the Go on this machine; never download another toolchain.
        GOTOOLCHAIN: 'local',
      },
      timeoutMs: INSTALL_TIMEOUT_MS,
    },
    log,
  );
  await rename(partial, paths.goPeerBinary);
  await writeFile(stamp, fingerprint);
  return { toolchain: 'go', cached: false, durationMs: Date.now() - started };
}

/**
 * Creates the venv of the Python peers (tikv-client, tikv-python, pinned in requirements.txt)
 * unless it was made from the same requirements by the same interpreter. A half-made venv has no
 * stamp and is made again from scratch.
 */
export async function ensurePythonPeers(
  paths: PeerToolchainPaths,
  log: (line: string) => void,
): Promise<InstallOutcome> {
  const started = Date.now();
  const interpreter = process.env.TIKV_PEERS_PYTHON ?? 'python3';
  const version = commandOutput(
    interpreter,
    ['-c', 'import platform, sys; print(sys.version, platform.machine())'],
    `${interpreter} is not installed (set TIKV_PEERS_PYTHON to a CPython 3.11)`,
  );
  const fingerprint = await fingerprintOf([interpreter, version], [PYTHON_REQUIREMENTS]);
  const stamp = path.join(paths.venv, '.fingerprint');
  if (existsSync(paths.python) && (await readIfExists(stamp)) === fingerprint) {
    return { toolchain: 'python', cached: true, durationMs: Date.now() - started };
  }
  await rm(paths.venv, { recursive: true, force: true });
  await runInstallStep(
    {
      label: `creating the Python peers' venv (${version.split(' ')[0]})`,
      command: interpreter,
      args: ['-m', 'venv', paths.venv],
      cwd: REPOSITORY_ROOT,
      timeoutMs: INSTALL_TIMEOUT_MS,
    },
    log,
  );
  await runInstallStep(
    {
      label: 'installing tikv-client 0.0.4 and tikv-python 0.1.1 from PyPI',
      command: paths.python,
      args: [
        '-m',
        'pip',
        'install',
        '--disable-pip-version-check',
        '--no-input',
        '--progress-bar',
        'off',
        '-r',
        PYTHON_REQUIREMENTS,
      ],
      cwd: REPOSITORY_ROOT,
      timeoutMs: INSTALL_TIMEOUT_MS,
    },
    log,
  );
  await writeFile(stamp, fingerprint);
  return { toolchain: 'python', cached: false, durationMs: Date.now() - started };
}

function commandOutput(command: string, args: string[], missing: string): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch {
    throw new Error(missing);
  }
}

async function fingerprintOf(values: string[], files: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const value of values) hash.update(`${value}\0`);
  for (const file of [...files].sort()) {
    hash.update(`${path.basename(file)}\0`);
    hash.update(await readFile(file));
  }
  return hash.digest('hex');
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
