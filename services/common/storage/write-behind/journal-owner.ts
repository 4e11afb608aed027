import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which process writes behind a store. The overlay of a process writing behind holds rows its
 * journal has and the store not yet, so nobody else may replay that journal while it runs (a
 * replay racing its checkpoints could put an older version back over a newer one), nor write
 * behind the same store. The owner leaves its pid in the journal's directory and removes it on
 * close; a pid of a process that no longer exists (killed) frees the journal for replay.
 */
const OWNER_FILE = 'owner.pid';

/** Refused: another process is writing behind this store. */
export class JournalInUseError extends Error {
  constructor(
    readonly journalDirectory: string,
    readonly ownerPid: number,
  ) {
    super(
      `the write journal ${journalDirectory} belongs to running process ${ownerPid}: ` +
        'stop it before opening its store (one process per store)',
    );
    this.name = 'JournalInUseError';
  }
}

/** Throws JournalInUseError while a live process (this one included) owns the journal. */
export function assertJournalUnowned(journalDirectory: string): void {
  const ownerPid = ownerPidOf(journalDirectory);
  if (ownerPid !== undefined && isRunning(ownerPid)) {
    throw new JournalInUseError(journalDirectory, ownerPid);
  }
}

/**
 * Marks this process as the journal's owner (its directory must exist) — before the store's
 * replay, so that no other process replays or writes it from then on. The file is created
 * exclusively, so of two processes starting at once only one becomes the owner; a file left by a
 * process that no longer runs is replaced.
 */
export function claimJournal(journalDirectory: string): void {
  const path = join(journalDirectory, OWNER_FILE);
  for (let attempt = 0; ; attempt += 1) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    assertJournalUnowned(journalDirectory);
    rmSync(path, { force: true });
  }
}

export function releaseJournal(journalDirectory: string): void {
  if (ownerPidOf(journalDirectory) === process.pid) rmSync(join(journalDirectory, OWNER_FILE));
}

function ownerPidOf(journalDirectory: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(join(journalDirectory, OWNER_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, it is only not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A process killed but not yet reaped by its parent (a supervisor restarting it at once) still
 * answers signal 0; on Linux its state in /proc says it is gone.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}
