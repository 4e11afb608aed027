import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbBackend } from './lmdb-backend';
import { crashRowKey, crashRowValue, type CrashWriterMode } from './testing/lmdb-crash-writer';

const WRITER_SCRIPT = join(__dirname, 'testing', 'lmdb-crash-writer.ts');
/** Kill once this many writes are acknowledged: enough to be meaningful, reached in well under a second. */
const ACKS_BEFORE_KILL = 3_000;
const CHILD_DEADLINE_MS = 15_000;

interface KilledWriter {
  signal: NodeJS.Signals | null;
  acknowledged: number[];
  errorOutput: string;
}

/** Runs the writer, SIGKILLs it mid-burst and returns every index it acknowledged. */
function runAndKillWriter(directory: string, mode: CrashWriterMode): Promise<KilledWriter> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--require', require.resolve('tsx/cjs'), WRITER_SCRIPT, directory, mode],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const acknowledged: number[] = [];
    let pending = '';
    let errorOutput = '';
    const guard = setTimeout(() => child.kill('SIGKILL'), CHILD_DEADLINE_MS);
    child.stderr.on('data', (chunk: Buffer) => (errorOutput += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? ''; // a line cut by the kill is not an acknowledgement
      for (const line of lines) {
        acknowledged.push(Number(line.slice('ack '.length)));
      }
      if (acknowledged.length >= ACKS_BEFORE_KILL) {
        child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    // 'close' fires after the pipes drained, so every line the child wrote has been read.
    child.on('close', (_code, signal) => {
      clearTimeout(guard);
      resolve({ signal, acknowledged, errorOutput });
    });
  });
}

// A plain open after the kill: a write-behind journal left behind is replayed by every opener.
test.each<CrashWriterMode>(['direct', 'write-behind'])(
  'every write acknowledged before kill -9 is present after reopening (%s)',
  async (mode) => {
    const directory = await mkdtemp(join(tmpdir(), 'lmdb-crash-'));
    try {
      const writer = await runAndKillWriter(directory, mode);
      expect({ signal: writer.signal, errorOutput: writer.errorOutput }).toEqual({
        signal: 'SIGKILL',
        errorOutput: '',
      });
      expect(writer.acknowledged.length).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);

      const backend = await LmdbBackend.open(directory);
      try {
        const stored = await backend.getMany(writer.acknowledged.map(crashRowKey));
        const missing = writer.acknowledged.filter(
          (index, position) => !stored[position]?.equals(crashRowValue(index)),
        );
        expect(missing).toEqual([]);
      } finally {
        await backend.close();
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  },
);
