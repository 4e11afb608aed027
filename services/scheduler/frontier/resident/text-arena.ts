/**
 * Strings kept as UTF-8 bytes in large buffers outside the JavaScript heap, each referred to by a
 * number. A million URLs held as strings would be a million objects that every full collection
 * walks (a frontier of 1M URLs as heap objects took 28–29 % off the scheduler's throughput,
 * docs/frontier-performance.md); here they are a few buffers.
 *
 * Text is appended, never changed: replacing a string appends the new one and counts the old bytes
 * as garbage (`garbageByteCount`), which the owner reclaims by copying what it still refers to into
 * a fresh arena (`copyFrom`). Buffers are chunks of CHUNK_BYTE_COUNT (a longer string gets a chunk
 * of its own), so the arena grows without copying what it holds. A reference is
 * chunk × CHUNK_BYTE_COUNT + offset: exact as a double up to 2^53 bytes.
 */
export class TextArena {
  static readonly CHUNK_BYTE_COUNT = 1 << 22;
  readonly #chunks: Buffer[] = [];
  /** Bytes used in the last chunk. */
  #usedInLast = 0;
  #liveByteCount = 0;
  #garbageByteCount = 0;

  /** Bytes of the strings referred to (appended and not released). */
  get liveByteCount(): number {
    return this.#liveByteCount;
  }

  /** Bytes of released strings, until the owner compacts. */
  get garbageByteCount(): number {
    return this.#garbageByteCount;
  }

  /** Bytes the chunks take in memory. */
  get byteCount(): number {
    return this.#chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  /** Appends `text`; answers its reference (pass it, with its byte length, to read or release). */
  append(text: string): TextReference {
    const byteLength = Buffer.byteLength(text, 'utf8');
    const reference = this.#reserve(byteLength);
    this.#chunks[this.#chunks.length - 1].write(text, this.#usedInLast - byteLength, 'utf8');
    return { at: reference, byteLength };
  }

  /** The text of a reference this arena answered. */
  read(reference: number, byteLength: number): string {
    const chunk = this.#chunks[Math.floor(reference / TextArena.CHUNK_BYTE_COUNT)];
    const offset = reference % TextArena.CHUNK_BYTE_COUNT;
    return chunk.toString('utf8', offset, offset + byteLength);
  }

  /** Counts a string the owner no longer refers to as garbage. */
  release(byteLength: number): void {
    this.#liveByteCount -= byteLength;
    this.#garbageByteCount += byteLength;
  }

  /** Copies a string of `source` here, without decoding it; answers its reference here. */
  copyFrom(source: TextArena, reference: number, byteLength: number): number {
    const at = this.#reserve(byteLength);
    source.copyTo(
      reference,
      byteLength,
      this.#chunks[this.#chunks.length - 1],
      this.#usedInLast - byteLength,
    );
    return at;
  }

  /** Appends `byteLength` bytes of `source` from `start` (text already encoded); its reference. */
  appendBytes(source: Uint8Array, start: number, byteLength: number): number {
    const at = this.#reserve(byteLength);
    this.#chunks[this.#chunks.length - 1].set(
      source.subarray(start, start + byteLength),
      this.#usedInLast - byteLength,
    );
    return at;
  }

  /** Copies a string's bytes into `target` at `targetOffset`, without decoding it. */
  copyTo(reference: number, byteLength: number, target: Uint8Array, targetOffset: number): void {
    const chunk = this.#chunks[Math.floor(reference / TextArena.CHUNK_BYTE_COUNT)];
    const offset = reference % TextArena.CHUNK_BYTE_COUNT;
    target.set(chunk.subarray(offset, offset + byteLength), targetOffset);
  }

  /** Room for `byteLength` bytes at the end of the last chunk; answers where it starts. */
  #reserve(byteLength: number): number {
    const last = this.#chunks.length - 1;
    if (last < 0 || this.#usedInLast + byteLength > this.#chunks[last].length) {
      this.#chunks.push(Buffer.allocUnsafe(Math.max(TextArena.CHUNK_BYTE_COUNT, byteLength)));
      this.#usedInLast = 0;
    }
    const chunkIndex = this.#chunks.length - 1;
    if (this.#chunks[chunkIndex].length > TextArena.CHUNK_BYTE_COUNT) {
      // A string longer than a chunk: its own chunk, and the next string starts a new one. Its
      // reference still names the chunk by index × CHUNK_BYTE_COUNT, at offset 0.
      this.#usedInLast = this.#chunks[chunkIndex].length;
    } else {
      this.#usedInLast += byteLength;
    }
    this.#liveByteCount += byteLength;
    return chunkIndex * TextArena.CHUNK_BYTE_COUNT + this.#usedInLast - byteLength;
  }
}

/** Where a string sits in its arena. */
export interface TextReference {
  at: number;
  byteLength: number;
}
