import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Which native addon lmdb-js runs on. Its loader (node-gyp-build-optional-packages) takes a
 * `build/Release/*.node` in the lmdb package first, unless PREBUILDS_ONLY is set, and the
 * published prebuilt binary otherwise. Those prebuilt binaries are debug builds (lmdb 3.5.6's
 * linux-x64 one was compiled with `-O3 -O0`), which cost LMDB about twice the CPU per row written;
 * `make setup` builds the addon from source instead (scripts/setup/ensure-lmdb-release-build.sh).
 */
export type LmdbAddonKind = 'release build' | 'published prebuilt (debug build)';

export function lmdbAddonKindIn(
  packageDirectory: string,
  environment: NodeJS.ProcessEnv = process.env,
): LmdbAddonKind {
  const releaseDirectory = join(packageDirectory, 'build', 'Release');
  const hasReleaseBuild =
    existsSync(releaseDirectory) &&
    readdirSync(releaseDirectory).some((name) => name.endsWith('.node'));
  return hasReleaseBuild && !environment.PREBUILDS_ONLY
    ? 'release build'
    : 'published prebuilt (debug build)';
}

/** The addon of the lmdb package this process resolves (its main module is dist/index.cjs). */
export function lmdbAddonKind(): LmdbAddonKind {
  return lmdbAddonKindIn(join(dirname(require.resolve('lmdb')), '..'));
}

let isWarned = false;

/**
 * Warns once per process when LMDB runs on the prebuilt debug build: everything works, at about
 * twice LMDB's CPU, and nothing else would tell the operator who installed with `npm ci` alone.
 */
export function warnOnceIfLmdbAddonIsDebugBuild(): void {
  if (isWarned) return;
  isWarned = true;
  if (lmdbAddonKind() === 'release build') return;
  process.emitWarning(
    "lmdb-js runs on its published prebuilt addon, a debug build (about twice LMDB's CPU per write); " +
      'build it from source with `make setup` (scripts/setup/ensure-lmdb-release-build.sh)',
    { code: 'LMDB_DEBUG_ADDON' },
  );
}
