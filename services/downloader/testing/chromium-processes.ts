import { readFileSync } from 'node:fs';
import { listProcessTree } from '../rendering/pool-sizing/proc-stats';

export interface ChromiumRenderer {
  /** pid and start time: unique even when a pid is reused. */
  readonly identity: string;
  readonly commandLine: string;
}

/** Chromium renderer processes under this test process now, with their command lines. */
export function chromiumRenderers(): ChromiumRenderer[] {
  const renderers: ChromiumRenderer[] = [];
  for (const entry of listProcessTree(process.pid)) {
    let commandLine: string;
    try {
      commandLine = readFileSync(`/proc/${entry.pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      continue; // exited meanwhile
    }
    if (commandLine.includes('--type=renderer')) {
      renderers.push({ identity: `${entry.pid}@${entry.startTime}`, commandLine });
    }
  }
  return renderers;
}
