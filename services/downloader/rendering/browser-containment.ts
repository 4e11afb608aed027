import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/**
 * How Chromium is tied to the downloader's life, strongest first:
 *
 * - `pid_namespace`: Chromium runs as process 1 of its own PID namespace
 *   (`setpriv --pdeathsig KILL -- unshare --pid --fork --kill-child=SIGKILL -- chromium …`).
 *   When the downloader dies in any way (kill -9 and the OOM killer included), the kernel kills
 *   `unshare` (parent-death signal), which kills Chromium (its own parent-death signal), and the
 *   end of a namespace's process 1 kills every process in it: renderers, zygotes, the GPU and
 *   network helpers, and the crash handler, which double-forks into its own session and would
 *   escape a process-group kill. Nothing is polled; nothing depends on Chromium noticing a closed
 *   pipe. Needs CAP_SYS_ADMIN (root), or —
 * - `user_and_pid_namespace`: the same inside a user namespace (`unshare --user --map-root-user`),
 *   for a non-root downloader where unprivileged user namespaces are allowed.
 * - `parent_death_signal`: only `setpriv --pdeathsig KILL`: the browser process dies with the
 *   downloader at once; its helper processes exit on their own once they lose it (about a second).
 * - `none`: no util-linux tools; Chromium notices the closed DevTools pipe by itself (seconds).
 *
 * PR_SET_PDEATHSIG fires when the *thread* that forked the child exits. Node spawns from its main
 * thread, which lives as long as the process, so the signal means "the downloader is gone".
 */
export type ContainmentKind =
  'pid_namespace' | 'user_and_pid_namespace' | 'parent_death_signal' | 'none';

export interface BrowserCommand {
  readonly executablePath: string;
  readonly argumentList: readonly string[];
}

export interface BrowserContainment {
  readonly kind: ContainmentKind;
  /** The command that starts `chromiumPath` with `chromiumArguments` under this containment. */
  command(chromiumPath: string, chromiumArguments: readonly string[]): BrowserCommand;
}

const TOOL_DIRECTORIES = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];
const PROBE_TIMEOUT_MS = 5000;

function findTool(name: string): string | undefined {
  for (const directory of TOOL_DIRECTORIES) {
    const candidate = `${directory}/${name}`;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function containmentOf(kind: ContainmentKind, prefix: readonly string[]): BrowserContainment {
  return {
    kind,
    command: (chromiumPath, chromiumArguments) =>
      prefix.length === 0
        ? { executablePath: chromiumPath, argumentList: [...chromiumArguments] }
        : {
            executablePath: prefix[0],
            argumentList: [...prefix.slice(1), chromiumPath, ...chromiumArguments],
          },
  };
}

/** Runs `command` (with `true` as the program) once: does this containment work here? */
function worksHere(command: BrowserCommand): boolean {
  const result = spawnSync(command.executablePath, [...command.argumentList], {
    stdio: 'ignore',
    timeout: PROBE_TIMEOUT_MS,
  });
  return result.status === 0;
}

/**
 * The strongest containment this machine allows, found by running each candidate once with
 * `true` in Chromium's place (a few milliseconds, once per engine start).
 */
export function detectBrowserContainment(): BrowserContainment {
  if (process.platform !== 'linux') return containmentOf('none', []);
  const setpriv = findTool('setpriv');
  if (setpriv === undefined) return containmentOf('none', []);
  const parentDeath = [setpriv, '--pdeathsig', 'KILL', '--'];
  const unshare = findTool('unshare');
  const trueProgram = findTool('true') ?? 'true';
  if (unshare !== undefined) {
    const namespaced = (extra: readonly string[]) => [
      ...parentDeath,
      unshare,
      ...extra,
      '--pid',
      '--fork',
      '--kill-child=SIGKILL',
      '--',
    ];
    for (const [kind, extra] of [
      ['pid_namespace', []],
      ['user_and_pid_namespace', ['--user', '--map-root-user']],
    ] as const) {
      const candidate = containmentOf(kind, namespaced(extra));
      if (worksHere(candidate.command(trueProgram, []))) return candidate;
    }
  }
  const candidate = containmentOf('parent_death_signal', parentDeath);
  return worksHere(candidate.command(trueProgram, [])) ? candidate : containmentOf('none', []);
}
