import { assertConventionalDocument } from './document-convention';
import { decodeDocument, encodeDocument } from './json-document-codec';

/**
 * How one table turns its documents into stored bytes and back. Every codec checks what it stores
 * against CONVENTION.md (field names and the type rules), so names on disk follow the convention
 * whichever codec a table uses.
 */
export interface DocumentCodec<T> {
  /** Checks `value` and encodes it; throws a StorageConventionError when it breaks a rule. */
  encode(value: T): Buffer;
  /** The bytes `value` would be stored as, unchecked: a compare-and-swap's expectation. */
  encodeForComparison(value: T): Buffer;
  /** Decodes the value that starts at `start` in `bytes` (0 by default). */
  decode(bytes: Buffer, start?: number): T;
}

/**
 * The default: canonical JSON (fields sorted, see json-document-codec.ts), every document walked by
 * the convention check. Any plain document fits; suits tables written now and then.
 */
const conventionalJsonCodec: DocumentCodec<unknown> = {
  encode(value) {
    assertConventionalDocument(value);
    return encodeDocument(value);
  },
  encodeForComparison: encodeDocument,
  decode: (bytes, start = 0) => decodeDocument(start === 0 ? bytes : bytes.subarray(start)),
};

export function jsonDocumentCodec<T>(): DocumentCodec<T> {
  return conventionalJsonCodec as DocumentCodec<T>;
}
