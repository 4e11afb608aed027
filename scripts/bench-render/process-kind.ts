import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * What a process in a contender's tree is, for the CPU breakdown: the contender's own Node process
 * (the downloader, or the peer's Node running puppeteer), Chromium's browser process, its renderers
 * (the pages' documents and scripts), GPU process (software compositing here), utility processes
 * (the network service above all), zygotes, and anything else (the containment's `unshare`,
 * crashpad).
 */
export const PROCESS_KINDS = [
  'node',
  'browser',
  'renderer',
  'gpu',
  'utility',
  'zygote',
  'other',
] as const;
export type ProcessKind = (typeof PROCESS_KINDS)[number];

/** A record with a value for every kind, in PROCESS_KINDS order. */
export function byProcessKind<T>(value: (kind: ProcessKind) => T): Record<ProcessKind, T> {
  return Object.fromEntries(PROCESS_KINDS.map((kind) => [kind, value(kind)])) as Record<
    ProcessKind,
    T
  >;
}

const KIND_OF_CHROMIUM_TYPE: Readonly<Record<string, ProcessKind>> = {
  renderer: 'renderer',
  'gpu-process': 'gpu',
  utility: 'utility',
  zygote: 'zygote',
};

/**
 * The kind of a process other than the tree's root, from its command line (/proc/<pid>/cmdline
 * with its NUL separators as spaces). Chromium's children rename themselves (setproctitle): their
 * whole command line then is one string, `--type=…` inside it.
 */
export function processKindOf(commandLine: string): ProcessKind {
  const chromiumType = /(?:^|\s)--type=(\S+)/.exec(commandLine)?.[1];
  if (chromiumType !== undefined) return KIND_OF_CHROMIUM_TYPE[chromiumType] ?? 'other';
  const program = basename(commandLine.trim().split(/\s+/)[0] ?? '');
  // Debian's full browser runs as `chromium`; the headless shell as `chromium-headless-shell` or
  // upstream's `headless_shell`.
  return /chrom|headless[-_]shell/.test(program) ? 'browser' : 'other';
}

/** A running process's command line, NULs as spaces; empty once it has exited. */
export function readCommandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}
