import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChildUntilKilled } from '../testing/crash-child';
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
async function runAndKillWriter(directory: string, mode: CrashWriterMode): Promise<KilledWriter> {
  const acknowledged: number[] = [];
  const child = await runChildUntilKilled(
    WRITER_SCRIPT,
    [directory, mode],
    (line, kill) => {
      acknowledged.push(Number(line.slice('ack '.length)));
      if (acknowledged.length >= ACKS_BEFORE_KILL) kill();
    },
    CHILD_DEADLINE_MS,
  );
  return { ...child, acknowledged };
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
