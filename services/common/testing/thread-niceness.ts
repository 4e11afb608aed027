import { readdirSync, readFileSync } from 'node:fs';

/**
 * The niceness of each thread of process `pid` as the kernel reports it (field 19 of
 * /proc/<pid>/task/<tid>/stat), by thread id. Linux only.
 */
export function threadNicenessOf(pid: number | 'self'): Map<number, number> {
  const byThread = new Map<number, number>();
  for (const name of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byThread.set(Number(name), Number(fields[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return byThread;
}
