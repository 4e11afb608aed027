import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { expiresAtMsOf, payloadOf } from '../../../common/storage/lmdb-value-envelope';
import { TableLocation } from '../../../common/storage/storage-key';
import type { StoredWrite } from '../../../common/storage/write-behind/journal-record';
import type { ResidentRows } from '../../../common/storage/write-behind/resident-rows';
import type { UrlTaskDocument } from '../frontier-documents';
import { urlTaskCodec } from '../frontier-tables';
import { readResidentSnapshot } from './resident-snapshot-file';
import {
  ResidentSnapshotSchedule,
  residentSnapshotSettingsOf,
  type ResidentSnapshotSettings,
  type ResidentSnapshotWritten,
} from './resident-snapshot-schedule';
import { ResidentUrlStore } from './resident-url-store';
import { ResidentValueError, type CheckedUrlTask } from './resident-url-table';

/** Where the scheduler's url_task rows live in the keyspace (CONTRACT.md §五). */
const URL_TASK_LOCATION = new TableLocation('scheduler', 'url_task');

/** The snapshot file of the resident url_task rows, inside the store's directory. */
export function residentUrlTaskSnapshotPathOf(storeDirectory: string): string {
  return join(storeDirectory, 'resident', 'url_task.snapshot');
}

export interface ResidentUrlTaskOptions {
  snapshot?: Partial<ResidentSnapshotSettings>;
  /** Where a failed background snapshot is reported; default process.emitWarning. */
  onSnapshotError?: (error: unknown) => void;
  /** Told of every snapshot that counted (the scheduler logs it). */
  onSnapshotWritten?: (written: ResidentSnapshotWritten) => void;
}

/**
 * The scheduler's url_task rows as resident rows of its write-behind store (resident-rows.ts,
 * docs/resident-frontier.md step 3): the frontier writes them through the keyspace as ever, the
 * store journals them with the rest of each batch, and this owner holds them — checked once, as
 * they are issued (the document the write carries from the keyspace, or its bytes decoded: on
 * replay, or from a writer that did not give it), then put into the resident url store (and its
 * indexes) once their record is durable. Its snapshots (ResidentSnapshotSchedule) let the journal
 * forget them.
 *
 * A row it could not hold — a delete (url_task rows are never deleted), an expiry, a key that is
 * not its document's url_hash, a document the store would refuse — refuses its batch before the
 * journal takes it.
 */
export class ResidentUrlTaskRows implements ResidentRows<CheckedUrlTask> {
  readonly keyPrefix = URL_TASK_LOCATION.prefixBytes;
  readonly snapshots: ResidentSnapshotSchedule;

  private constructor(
    readonly store: ResidentUrlStore,
    snapshotPath: string,
    coveredThrough: number,
    options: ResidentUrlTaskOptions,
  ) {
    this.snapshots = new ResidentSnapshotSchedule(
      store,
      snapshotPath,
      coveredThrough,
      residentSnapshotSettingsOf(options.snapshot),
      {
        onError:
          options.onSnapshotError ??
          ((error: unknown) => process.emitWarning(`resident snapshot failed: ${String(error)}`)),
        onWritten: options.onSnapshotWritten,
      },
    );
  }

  /**
   * The rows as the store's newest snapshot holds them (none before the first); open the
   * write-behind store with them next, which replays the journal since, then call
   * `snapshots.start`. A damaged snapshot is refused (ResidentSnapshotError), never half-read.
   */
  static async load(
    storeDirectory: string,
    options: ResidentUrlTaskOptions = {},
  ): Promise<ResidentUrlTaskRows> {
    const path = residentUrlTaskSnapshotPathOf(storeDirectory);
    if (!existsSync(path)) return new ResidentUrlTaskRows(new ResidentUrlStore(), path, 0, options);
    const { store, journalSequence } = await readResidentSnapshot(path);
    return new ResidentUrlTaskRows(store, path, journalSequence, options);
  }

  prepare({ key, stored, source }: StoredWrite): CheckedUrlTask {
    if (stored === undefined) throw new ResidentValueError('url_task rows are never deleted');
    if (expiresAtMsOf(stored) !== 0) throw new ResidentValueError('url_task rows never expire');
    let task: UrlTaskDocument;
    if (source !== undefined) {
      // The document the resident url_task table encoded into these bytes, under its url_hash's
      // key (ResidentTableStorage). Held by reference: the frontier never changes a document
      // once made (url-task-transitions.ts makes new ones).
      task = source as UrlTaskDocument;
    } else {
      task = urlTaskCodec.decode(payloadOf(stored));
      if (!URL_TASK_LOCATION.keyOf(task.url_hash).equals(key)) {
        throw new ResidentValueError(
          `a url_task row under a key not its url_hash ${task.url_hash}`,
        );
      }
    }
    return this.store.table.check(task);
  }

  apply(tasks: readonly CheckedUrlTask[], sequence: number): void {
    for (const task of tasks) this.store.putChecked(task);
    this.snapshots.applied(sequence, tasks.length);
  }

  coveredThrough(): number {
    return this.snapshots.coveredThrough;
  }
}
