import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assertJournalUnowned,
  claimJournal,
  JournalInUseError,
  releaseJournal,
} from './journal-owner';

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

function stateOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'journal-owner-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

test('a running owner keeps the journal; its killed process, even unreaped, frees it', async () => {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  const pid = child.pid as number;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await writeFile(join(directory, 'owner.pid'), String(pid));
    expect(() => assertJournalUnowned(directory)).toThrow(JournalInUseError);
    expect(() => claimJournal(directory)).toThrow(`belongs to running process ${pid}`);

    child.kill('SIGKILL');
    // Synchronously, so this process cannot reap the child: it stays a zombie meanwhile.
    for (let waited = 0; stateOf(pid) !== 'Z' && waited < 2000; waited += 10) {
      Atomics.wait(PAUSE, 0, 0, 10);
    }
    expect(stateOf(pid)).toBe('Z');
    expect(() => assertJournalUnowned(directory)).not.toThrow();
    claimJournal(directory);
    expect(await readFile(join(directory, 'owner.pid'), 'utf8')).toBe(String(process.pid));
    releaseJournal(directory);
    expect(() => assertJournalUnowned(directory)).not.toThrow();
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
});
