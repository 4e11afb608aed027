import { join } from 'node:path';
import { valueOfThread } from '../../../common/process/one-answer-thread';

const THREAD_ENTRY = join(__dirname, 'url-slot-entries-thread');

/**
 * urlSlotEntriesOf (url-slot-index.ts) on a thread of its own: the url_hash index of a table read
 * back from its snapshot — ~0.13–0.19 s of random writes at 1.8M URLs — is built there while this
 * thread builds the store's ordering indexes (ResidentUrlStore.fromSlicesIndexedBy).
 */
export function urlSlotEntriesOnThread(
  firstWords: Uint32Array,
  entry = THREAD_ENTRY,
): Promise<Int32Array> {
  return valueOfThread<Int32Array>(entry, firstWords, 'url_hash index');
}
