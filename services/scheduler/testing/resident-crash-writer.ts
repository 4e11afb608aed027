/**
 * Child process of resident-url-task-crash.test.ts: writes url_tasks through the scheduler's
 * keyspace on a store with resident url_task rows until it is killed. Every write is a pair issued
 * in one run — the url_task at a new version (its attempt_count) and a domain_runtime row of the
 * same URL carrying that version (done_url_count) — so they share a journal group; it prints
 * `ack <index> <version>` once both resolved. Every 5,000 acknowledgements it begins a snapshot and
 * prints `snapshot begun`, so the parent can kill it mid-snapshot. Exits by itself after a
 * deadline in case the parent never kills it.
 *
 * Usage: node --require tsx/cjs resident-crash-writer.ts <directory> <first version>
 */
import { setImmediate } from 'node:timers/promises';
import { openServiceKeyspace } from '../../common/storage/service-keyspace';
import { writeLineBlocking } from '../../common/testing/crash-child';
import { openFrontierTables } from '../frontier/frontier-tables';
import { timeTextOf } from '../frontier/time-text';
import { openResidentUrlTaskStore } from '../frontier/resident/open-resident-url-task-store';
import type { DomainRuntimeDocument, UrlTaskDocument } from '../frontier/frontier-documents';
import { queuedUrlTask, spreadUrlHashOf } from './url-task-fixtures';

export const CRASH_URL_COUNT = 20_000;
const CONCURRENT_WRITERS = 16;
const SNAPSHOT_EVERY_ACKS = 5_000;
const DEADLINE_MS = 20_000;

export const crashUrlHashOf = spreadUrlHashOf;

export function crashDomainOf(index: number): string {
  return `u${index}.example`;
}

function taskOf(index: number, version: number): UrlTaskDocument {
  return queuedUrlTask({
    url: `https://${crashDomainOf(index)}/`,
    url_hash: crashUrlHashOf(index),
    domain: crashDomainOf(index),
    url_state: version % 2 === 0 ? 'queued' : 'done',
    is_in_due_index: version % 2 === 0,
    due_at: timeTextOf(Date.UTC(2026, 7, 15) + (version % 1000) * 1000),
    attempt_count: version,
  });
}

function runtimeOf(index: number, version: number): DomainRuntimeDocument {
  return {
    domain: crashDomainOf(index),
    in_flight_count: 0,
    next_dequeue_at: null,
    last_dequeue_at: null,
    queued_url_count: 1,
    done_url_count: version,
    failed_url_count: 0,
    waiting_url_count: 0,
    dropped_url_count: 0,
    due_url_count: 0,
    head_priority_rank: null,
    head_due_at: null,
    updated_at: '2026-08-15T07:00:00Z',
  };
}

async function main(directory: string, firstVersion: number): Promise<void> {
  const store = await openResidentUrlTaskStore(directory, {
    checkpoint: { rowCountThreshold: 2_000, maxDelayMs: 50 },
  });
  const tables = openFrontierTables(openServiceKeyspace('scheduler', store.backend));
  const deadline = Date.now() + DEADLINE_MS;
  let next = 0;
  let ackCount = 0;
  const writer = async () => {
    while (Date.now() < deadline) {
      const index = next % CRASH_URL_COUNT;
      const version = firstVersion + Math.floor(next / CRASH_URL_COUNT);
      next += 1;
      await Promise.all([
        tables.urlTasks.put(crashUrlHashOf(index), taskOf(index, version)),
        tables.domainRuntime.put(crashDomainOf(index), runtimeOf(index, version)),
      ]);
      writeLineBlocking(`ack ${index} ${version}`);
      // As requests from sockets do: the journal acknowledges within microtasks, and a loop of
      // them alone would never let the checkpoints' and the snapshots' I/O complete.
      await setImmediate();
      ackCount += 1;
      if (ackCount % SNAPSHOT_EVERY_ACKS === 0) {
        // Begun before the line is written: its slices are being written when the parent reads it.
        const snapshot = store.urlTasks.snapshots.snapshotNow();
        writeLineBlocking('snapshot begun');
        void snapshot;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_WRITERS }, writer));
  await store.close();
}

if (require.main === module) {
  void main(process.argv[2], Number(process.argv[3]));
}
