import { open, readFile, rm } from 'node:fs/promises';
import { framedGroupsIn, type JournalFrame } from './journal-frame';
import { segmentPathsIn, syncDirectory } from './journal-segment-file';

/** A segment file kept in the journal, and the newest record it holds. */
export interface KeptSegment {
  path: string;
  lastSequence: number;
}

/** What a journal kept across a restart holds once its tail is cut (readJournalCuttingTail). */
export interface AppendedJournal {
  /** Every record up to where the journal stops, oldest first, in whole groups. */
  frames: JournalFrame[];
  /** The segments holding them, oldest first. */
  segments: KeptSegment[];
  /** The newest record's sequence number; 0 when the journal holds none. */
  lastSequence: number;
}

/**
 * Reads the journal in `directory` as far as it was appended — up to the first frame cut short or
 * damaged, or the first group whose sequence numbers do not follow on (an append that failed:
 * nothing after it was acknowledged) — and cuts the rest from the files: the segment where reading
 * stopped is truncated after its last whole group and synced, every later segment is deleted and
 * the directory synced. A journal that is appended to again after a restart (resident rows,
 * write-behind-lmdb-backend.ts) needs this: a record written after a torn tail would never be read
 * back, and one numbered after a gap would be taken for a later record than it is.
 */
export async function readJournalCuttingTail(directory: string): Promise<AppendedJournal> {
  const journal: AppendedJournal = { frames: [], segments: [], lastSequence: 0 };
  const paths = segmentPathsIn(directory);
  let stoppedAt = paths.length;
  for (let index = 0; index < paths.length && stoppedAt === paths.length; index += 1) {
    const bytes = await readFile(paths[index]);
    let keptBytes = 0;
    for (const { frames, endOffset } of framedGroupsIn(bytes)) {
      if (!followsOn(frames, journal.lastSequence)) break;
      journal.frames.push(...frames);
      journal.lastSequence = frames[frames.length - 1].sequence;
      keptBytes = endOffset;
    }
    if (keptBytes > 0)
      journal.segments.push({ path: paths[index], lastSequence: journal.lastSequence });
    if (keptBytes < bytes.length) {
      stoppedAt = index;
      await cutSegment(paths[index], keptBytes);
    }
  }
  const removed = paths.slice(stoppedAt + 1);
  // Newest first, as removeSegmentsIn: a crash halfway never leaves a later segment without an
  // earlier one.
  for (const path of removed.reverse()) await rm(path);
  if (stoppedAt < paths.length) await syncDirectory(directory);
  return journal;
}

/** Whether a group's records number on from `lastSequence` one by one (any start when 0). */
function followsOn(frames: JournalFrame[], lastSequence: number): boolean {
  let expected = lastSequence === 0 ? frames[0].sequence : lastSequence + 1;
  for (const { sequence } of frames) {
    if (sequence !== expected) return false;
    expected += 1;
  }
  return true;
}

/** Truncates a segment to its first `byteCount` bytes and syncs it; deletes it when that is 0. */
async function cutSegment(path: string, byteCount: number): Promise<void> {
  if (byteCount === 0) {
    await rm(path);
    return;
  }
  const file = await open(path, 'r+');
  try {
    await file.truncate(byteCount);
    await file.datasync();
  } finally {
    await file.close();
  }
}
