/**
 * Byte-level helpers for turning "keys starting with P" and "keys after K" into the half-open
 * [start, end) ranges the backend scans. Everything is memcmp order, like both backends.
 */

/** The smallest key strictly greater than `key`: appending a zero byte. */
export function keySuccessor(key: Buffer): Buffer {
  return Buffer.concat([key, Buffer.alloc(1)]);
}

/**
 * The smallest key greater than every key that starts with `prefix` (the exclusive end of a prefix
 * scan): drop trailing 0xff bytes, then increment the last byte.
 */
export function prefixEnd(prefix: Buffer): Buffer {
  let length = prefix.length;
  while (length > 0 && prefix[length - 1] === 0xff) {
    length -= 1;
  }
  if (length === 0) {
    throw new RangeError('a prefix of only 0xff bytes has no finite end');
  }
  const end = Buffer.from(prefix.subarray(0, length));
  end[length - 1] += 1;
  return end;
}
