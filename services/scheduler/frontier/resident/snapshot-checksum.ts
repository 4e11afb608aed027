import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { valueOfThread } from '../../../common/process/one-answer-thread';

/** Bytes a checksum pass reads from a snapshot file at a time. */
const READ_WINDOW_BYTES = 8 * 1024 * 1024;

const THREAD_ENTRY = join(__dirname, 'snapshot-checksum-thread');

/** What snapshot-checksum-thread.ts is started with. */
export interface ChecksumRequest {
  path: string;
  byteCount: number;
}

/**
 * CRC-32 of the first `byteCount` bytes of the file open as `fd`, a window at a time. A file
 * shorter than that answers the checksum of what it holds, which cannot match.
 */
export function checksumOfFile(fd: number, byteCount: number): number {
  const window = Buffer.allocUnsafe(Math.min(READ_WINDOW_BYTES, byteCount));
  let checksum = 0;
  for (let position = 0; position < byteCount;) {
    const read = readSync(fd, window, 0, Math.min(window.length, byteCount - position), position);
    if (read === 0) break;
    checksum = crc32(window.subarray(0, read), checksum);
    position += read;
  }
  return checksum;
}

/** checksumOfFile of the file at `path`, opened and closed here. */
export function checksumOfPath({ path, byteCount }: ChecksumRequest): number {
  const fd = openSync(path, 'r');
  try {
    return checksumOfFile(fd, byteCount);
  } finally {
    closeSync(fd);
  }
}

/**
 * checksumOfPath on a thread of its own: a 237 MB snapshot (1M URLs) takes ~0.13 s to read and
 * checksum — more on a slow spell — which the start spent before loading anything. On its own
 * thread it runs while this one loads the file's slices, which count only once it matches.
 */
export function checksumOnThread(request: ChecksumRequest, entry = THREAD_ENTRY): Promise<number> {
  return valueOfThread<number>(entry, request, 'snapshot checksum');
}
