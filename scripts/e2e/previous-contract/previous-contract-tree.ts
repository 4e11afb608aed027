import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { listFrozenContracts } from '../../contract-diff/frozen-contracts';

/*
 * The services as they were built for the previous contract version — to prove at run time, not
 * only on paper, that a party on the old contract and a party on the new one keep working together.
 * The source comes from the commit the previous version was frozen from (its frozen.json), taken
 * out of git into .tools/previous-contract/<commit>/ once and reused; its services run from there
 * through tsx like the current ones do in tests.
 */

export interface PreviousContractTree {
  /** The frozen version the tree was built for, e.g. `v1.1`. */
  readonly version: string;
  readonly commit: string;
  /** The tree's root: `services/<name>/main.ts` starts a service of that version. */
  readonly directory: string;
}

/** The contract's major version, from CONTRACT.md's title `… (v2)`. */
function currentMajor(root: string): number {
  const title = readFileSync(join(root, 'CONTRACT.md'), 'utf8').split('\n', 1)[0];
  const major = /\(v(\d+)\)/.exec(title)?.[1];
  if (major === undefined) throw new Error(`CONTRACT.md's title names no version: ${title}`);
  return Number(major);
}

function git(root: string, argumentList: string[]): string {
  return execFileSync('git', argumentList, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
}

/**
 * Checks out (once) the newest frozen version of the previous major contract. Fails with a clear
 * message when the clone lacks that commit (a shallow clone): the compatibility proof needs it.
 */
export function previousContractTree(root: string): PreviousContractTree {
  const major = currentMajor(root);
  const previous = listFrozenContracts(root)
    .filter((frozen) => Number(/^v(\d+)/.exec(frozen.version)?.[1]) < major)
    .at(-1);
  const commit = previous?.manifest?.source_commit?.replace(/\+dirty$/, '');
  if (previous === undefined || commit === undefined || !/^[0-9a-f]{40}$/.test(commit)) {
    throw new Error(`no frozen contract of a version before v${major} names its source commit`);
  }
  try {
    git(root, ['cat-file', '-e', `${commit}^{commit}`]);
  } catch {
    throw new Error(
      `commit ${commit} (contract ${previous.version}) is not in this clone — a shallow clone? ` +
        'The compatibility test runs that version; fetch the full history (git fetch --unshallow).',
    );
  }
  const directory = join(root, '.tools', 'previous-contract', commit);
  if (!existsSync(join(directory, '.complete'))) extract(root, commit, directory);
  linkDependencies(root, commit, directory);
  return { version: previous.version, commit, directory };
}

/** `git archive` of the commit into a fresh directory, renamed into place when complete. */
function extract(root: string, commit: string, directory: string): void {
  const partial = `${directory}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${partial}"`], { cwd: root });
  execFileSync('sh', ['-c', `: > "${partial}/.complete"`]);
  rmSync(directory, { recursive: true, force: true });
  renameSync(partial, directory);
}

/**
 * The old tree uses this checkout's node_modules when its lock file is the same (the usual case:
 * a contract change rarely changes dependencies); otherwise it gets its own `npm ci`.
 */
function linkDependencies(root: string, commit: string, directory: string): void {
  const modules = join(directory, 'node_modules');
  if (existsSync(modules)) return;
  const oldLock = git(root, ['show', `${commit}:package-lock.json`]);
  const currentLock = readFileSync(join(root, 'package-lock.json'), 'utf8');
  if (oldLock === currentLock) {
    symlinkSync(join(root, 'node_modules'), modules, 'dir');
    return;
  }
  console.log(`previous contract tree: its package-lock differs; npm ci in ${directory}`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: directory,
    stdio: 'inherit',
    env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
  });
}
