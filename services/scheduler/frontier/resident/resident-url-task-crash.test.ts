import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openServiceKeyspace } from '../../../common/storage/service-keyspace';
import { runChildUntilKilled } from '../../../common/testing/crash-child';
import { openFrontierTables } from '../frontier-tables';
import {
  CRASH_URL_COUNT,
  crashDomainOf,
  crashUrlHashOf,
} from '../../testing/resident-crash-writer';
import { openResidentUrlTaskStore } from './open-resident-url-task-store';
import { ResidentUrlStore } from './resident-url-store';

const WRITER_SCRIPT = join(__dirname, '..', '..', 'testing', 'resident-crash-writer.ts');
const CHILD_DEADLINE_MS = 25_000;

interface KilledWriter {
  signal: NodeJS.Signals | null;
  /** The highest version acknowledged per URL index. */
  acknowledged: Map<number, number>;
  ackCount: number;
  errorOutput: string;
}

/**
 * Runs the writer and kills it with SIGKILL: `mid-snapshot` a few milliseconds after it began a
 * snapshot once `minimumAcks` writes were acknowledged, `mid-write` right at `minimumAcks`.
 */
async function runAndKillWriter(
  directory: string,
  firstVersion: number,
  killAt: 'mid-snapshot' | 'mid-write',
  minimumAcks: number,
): Promise<KilledWriter> {
  const acknowledged = new Map<number, number>();
  let ackCount = 0;
  const child = await runChildUntilKilled(
    WRITER_SCRIPT,
    [directory, String(firstVersion)],
    (line, kill) => {
      if (line === 'snapshot begun') {
        if (killAt === 'mid-snapshot' && ackCount >= minimumAcks) kill(Math.random() * 20);
        return;
      }
      const [, index, version] = line.split(' ').map(Number);
      acknowledged.set(index, Math.max(acknowledged.get(index) ?? 0, version));
      ackCount += 1;
      if (killAt === 'mid-write' && ackCount >= minimumAcks) kill();
    },
    CHILD_DEADLINE_MS,
  );
  return { ...child, acknowledged, ackCount };
}

/**
 * Reopens the store and checks it against every acknowledgement so far: each URL's url_task at
 * least at its highest acknowledged version, its domain_runtime row at the same version (one
 * journal group: all or nothing), and the resident queues exactly those of its documents.
 */
async function expectEveryAcknowledgedWrite(
  directory: string,
  acknowledged: Map<number, number>,
): Promise<void> {
  const store = await openResidentUrlTaskStore(directory);
  try {
    const tables = openFrontierTables(openServiceKeyspace('scheduler', store.backend));
    const resident = store.urlTasks.store;
    const behind: string[] = [];
    const torn: string[] = [];
    const indexes = [...acknowledged.keys()];
    const runtimes = await tables.domainRuntime.getMany(indexes.map(crashDomainOf));
    for (const [position, index] of indexes.entries()) {
      const version = acknowledged.get(index) as number;
      const task = resident.get(crashUrlHashOf(index));
      const runtime = runtimes[position];
      if (task === undefined || task.attempt_count < version) {
        behind.push(`${index}: acknowledged ${version}, found ${task?.attempt_count}`);
      }
      if (task?.attempt_count !== runtime?.done_url_count) {
        torn.push(`${index}: url_task ${task?.attempt_count}, runtime ${runtime?.done_url_count}`);
      }
    }
    expect(behind).toEqual([]);
    expect(torn).toEqual([]);
    const rebuilt = new ResidentUrlStore();
    for (let slot = 0; slot < resident.size; slot += 1) rebuilt.put(resident.read(slot));
    const dueOf = (of: ResidentUrlStore) =>
      Array.from({ length: 50 }, (_, index) => of.indexes.dueSlots(crashDomainOf(index), 5));
    expect(dueOf(resident)).toEqual(dueOf(rebuilt));
    expect(resident.indexes.revisitCount).toBe(rebuilt.indexes.revisitCount);
  } finally {
    await store.close();
  }
}

test('kill -9 mid-snapshot and mid-write, twice in a row, loses no acknowledged url_task', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'resident-crash-'));
  try {
    // First run: every URL written at least once, then killed while a snapshot is being written.
    const first = await runAndKillWriter(directory, 1, 'mid-snapshot', CRASH_URL_COUNT + 2_000);
    expect({ signal: first.signal, errorOutput: first.errorOutput }).toEqual({
      signal: 'SIGKILL',
      errorOutput: '',
    });
    expect(first.acknowledged.size).toBe(CRASH_URL_COUNT);
    await expectEveryAcknowledgedWrite(directory, first.acknowledged);

    // Second run on what the first left — its journal kept and continued — killed mid-write.
    const second = await runAndKillWriter(directory, 1_000, 'mid-write', 12_000);
    expect({ signal: second.signal, errorOutput: second.errorOutput }).toEqual({
      signal: 'SIGKILL',
      errorOutput: '',
    });
    const both = new Map(first.acknowledged);
    for (const [index, version] of second.acknowledged) both.set(index, version);
    await expectEveryAcknowledgedWrite(directory, both);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}, 90_000);
