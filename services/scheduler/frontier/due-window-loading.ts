import { setImmediate } from 'node:timers/promises';
import type { ReadonlyKeyspaceTable } from '../../common/storage/keyspace-table';
import type { PrimaryKey } from '../../common/storage/primary-key';
import { withStagedEntries, type DueQueueWindows } from './due-queue-windows';
import type { IndexEntryDocument } from './frontier-documents';
import type { FrontierMutator } from './frontier-mutator';
import type { FrontierStore } from './frontier-store';

/**
 * url_due_index keys read per step: each step holds the mutation lock and the event loop (LMDB
 * reads do not yield) for a few milliseconds; requests are served between steps.
 */
const DUE_WINDOW_PAGE_SIZE = 2000;

export interface DueWindowLoadingDependencies {
  dueIndex: ReadonlyKeyspaceTable<IndexEntryDocument>;
  store: Pick<FrontierStore, 'pendingDueEntries'>;
  windows: DueQueueWindows;
  mutator: Pick<FrontierMutator, 'run'>;
  /** Keys read per step (default DUE_WINDOW_PAGE_SIZE). */
  pageSize?: number;
}

/**
 * Reads the whole due index once, a page at a time, and gives every domain whose first entries it
 * sees a window (DueQueueWindows) — so that the picker reads no storage for a domain's head from
 * its first turn on, not only from its second (at 1M URLs over 100,000 domains a domain's turn
 * comes round every few seconds at most).
 *
 * Each page is read under the mutation lock, like the picker's own reads: nothing is staged while
 * it is read, so a window it remembers is the queue as every decision so far left it (with the
 * entries staged but not durable merged in). A domain whose entries run across two pages gets no
 * window here (the lock was let go between them); the picker's first read of it makes one. Domains
 * that have a window already keep it. Resolves to the windows made, or undefined when `isStopping`
 * ended the pass early.
 */
export async function loadDueQueueWindows(
  dependencies: DueWindowLoadingDependencies,
  isStopping: () => boolean,
): Promise<number | undefined> {
  const { dueIndex, mutator, windows, pageSize = DUE_WINDOW_PAGE_SIZE } = dependencies;
  if (windows.size === 0) return 0; // windows switched off
  let after: PrimaryKey | undefined;
  let madeCount = 0;
  for (;;) {
    if (isStopping()) return undefined;
    const nextAfter = await mutator.run(async () => {
      const page = await dueIndex.scanKeys({ after, limit: pageSize });
      madeCount += rememberDomainsOfPage(dependencies, page.keys, page.nextAfter !== null, after);
      return page.nextAfter;
    });
    if (nextAfter === null) return madeCount;
    after = nextAfter;
    await setImmediate();
  }
}

/**
 * The windows of the domains whose first entries and end (or more entries than a window holds)
 * are in `keys`, a page of the index in key order; `previousLast`: the entry before the page.
 */
function rememberDomainsOfPage(
  { store, windows }: DueWindowLoadingDependencies,
  keys: readonly PrimaryKey[],
  isFollowed: boolean,
  previousLast: PrimaryKey | undefined,
): number {
  let madeCount = 0;
  let start = 0;
  while (start < keys.length) {
    const domainPrefix = domainPrefixOf(keys[start]);
    let end = start + 1;
    while (end < keys.length && domainPrefixOf(keys[end]) === domainPrefix) end += 1;
    const isContinued =
      start === 0 && previousLast !== undefined && domainPrefixOf(previousLast) === domainPrefix;
    const mayGoOn = end === keys.length && isFollowed;
    const runLength = end - start;
    if (!isContinued && (!mayGoOn || runLength > windows.size)) {
      // url_due_index keys are {domain}/{priority_rank}/{due_at}/{url_hash}.
      const domain = keys[start].parts[0];
      if (!windows.has(domain)) {
        const stored = {
          keys: keys.slice(start, Math.min(end, start + windows.size)),
          hasMore: runLength > windows.size,
        };
        windows.remember(domain, withStagedEntries(stored, store.pendingDueEntries(domain)));
        madeCount += 1;
      }
    }
    start = end;
  }
  return madeCount;
}

/** A key's encoded domain part with its separator: equal for the entries of one domain. */
function domainPrefixOf(key: PrimaryKey): string {
  return key.encoded.slice(0, key.encoded.indexOf('/') + 1);
}
