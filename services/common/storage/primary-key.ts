import { StorageConventionError } from './storage-errors';

/*
 * Primary keys are the third segment of `{service}:{table}:{primary_key}`. CONTRACT.md spells
 * composite keys with `/` between parts (`{priority_rank}/{due_at}/{url_hash}`), and the three-part
 * rule forbids a raw ':' (which every `…_at` time contains). So each part is percent-encoded for
 * exactly three characters, and parts are joined with '/':
 *
 *   '%' -> %25     '/' -> %2F     ':' -> %3A     (everything else is stored as is)
 *
 *   primaryKey('0003', '2026-08-15T07:47:52Z', 'ab12')  ->  0003/2026-08-15T07%3A47%3A52Z/ab12
 *   primaryKey('[2001:db8::1]')                          ->  [2001%3Adb8%3A%3A1]
 *
 * What callers can rely on:
 *   - Never a ':' in a primary key, never a '/' inside a part: a key cannot leave its table, and
 *     `primaryKeyPrefix(...leadingParts)` matches exactly the keys whose leading parts are equal.
 *   - A raw string prefix of a part encodes to a byte prefix of the encoded key ("starts with").
 *   - Byte order equals tuple order whenever the parts that decide the comparison have the same
 *     length and format — zero-padded ranks, `…_at` times, hashes, as in every composite key of
 *     CONTRACT.md. Only two things can sort differently from the raw values: a character that is
 *     escaped ('%' sorts where ':' or '/' stood), and, in a composite key, a part that is a proper
 *     prefix of another part followed by a byte below '/' (e.g. 'a' vs 'a-b'). Pad variable-width
 *     parts when their order matters.
 */

const PART_SEPARATOR = '/';

/** Characters that must be escaped. */
const NEEDS_ESCAPE = /[%/:]/g;
/** Non-global twin for a cheap "anything to escape?" test (a global regex's test() is stateful). */
const HAS_ESCAPABLE = /[%/:]/;
const ESCAPES: Readonly<Record<string, string>> = { '%': '%25', '/': '%2F', ':': '%3A' };

/** One encoded, non-empty part: unescaped characters or canonical escapes. */
const ENCODED_PART = '(?:[^%/:]|%(?:25|2F|3A))+';
const ENCODED_KEY = new RegExp(`^${ENCODED_PART}(?:${PART_SEPARATOR}${ENCODED_PART})*$`);
const ESCAPE = /%(25|2F|3A)/g;

/** A surrogate half without its partner cannot be encoded as UTF-8 and would collide on disk. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ANY_SURROGATE = /[\uD800-\uDFFF]/;

function hasLoneSurrogate(text: string): boolean {
  // Keys are almost always ASCII; only pay for the look-around regex when a surrogate is present.
  return ANY_SURROGATE.test(text) && LONE_SURROGATE.test(text);
}

const MAX_REMEMBERED_PARTS = 4096;

/**
 * `convert(part)`, remembered in `cache`, which is simply cleared when full. The parts that need
 * escaping (or unescaping) are mostly `…_at` times — `…T07%3A47%3A52Z` once encoded — and keys
 * built or read in one moment share them: every entry staged in one second has the same due_at, and
 * a few seconds' worth cover the due- and revisit-index keys a busy frontier scans. A lookup saves
 * a regex replace per key (decoding one cost ~800 bytes of garbage per URL leased at 1M URLs,
 * bench:frontier's heap profile).
 */
function remembered(
  cache: Map<string, string>,
  part: string,
  convert: (part: string) => string,
): string {
  let converted = cache.get(part);
  if (converted === undefined) {
    converted = convert(part);
    if (cache.size >= MAX_REMEMBERED_PARTS) cache.clear();
    cache.set(part, converted);
  }
  return converted;
}

const escapedParts = new Map<string, string>();
const escapePart = (part: string) => part.replace(NEEDS_ESCAPE, (character) => ESCAPES[character]);

function encodePart(part: string): string {
  if (typeof part !== 'string' || part.length === 0) {
    throw new StorageConventionError('primary key parts must be non-empty strings');
  }
  if (hasLoneSurrogate(part)) {
    throw new StorageConventionError('primary key part contains an unpaired surrogate');
  }
  return HAS_ESCAPABLE.test(part) ? remembered(escapedParts, part, escapePart) : part;
}

const decodedParts = new Map<string, string>();
const unescapePart = (encoded: string) =>
  encoded.replace(ESCAPE, (_escape, hexDigits: string) =>
    String.fromCharCode(parseInt(hexDigits, 16)),
  );

function decodePart(encoded: string): string {
  // Nearly every stored part has no escape: skip the regex (every index key a scan reads).
  return encoded.includes('%') ? remembered(decodedParts, encoded, unescapePart) : encoded;
}

/** An encoded primary key. Build it with `primaryKey(...parts)`; a plain string is one raw part. */
export class PrimaryKey {
  #parts: readonly string[] | undefined;

  private constructor(
    /** The escaped segment exactly as stored after `{service}:{table}:`. */
    readonly encoded: string,
    parts?: readonly string[],
  ) {
    this.#parts = parts;
  }

  static of(...parts: string[]): PrimaryKey {
    if (parts.length === 0) {
      throw new StorageConventionError('a primary key needs at least one part');
    }
    // Joined as it is encoded: keys are built for every URL leased and settled, and a mapped
    // array per key was a share of the scheduler's allocations.
    let encoded = encodePart(parts[0]);
    for (let index = 1; index < parts.length; index += 1) {
      encoded += PART_SEPARATOR + encodePart(parts[index]);
    }
    // A rest parameter is always a fresh array, so freezing it cannot affect the caller.
    return new PrimaryKey(encoded, Object.freeze(parts));
  }

  /** Validates a stored segment; rejects anything `of` could not have produced. */
  static fromEncoded(encoded: string): PrimaryKey {
    if (!ENCODED_KEY.test(encoded) || hasLoneSurrogate(encoded)) {
      throw new StorageConventionError(`"${encoded}" is not an encoded primary key`);
    }
    return new PrimaryKey(encoded);
  }

  /** The raw parts, decoded lazily because scans rarely need them. */
  get parts(): readonly string[] {
    this.#parts ??= Object.freeze(this.encoded.split(PART_SEPARATOR).map(decodePart));
    return this.#parts;
  }

  equals(other: PrimaryKey): boolean {
    return this.encoded === other.encoded;
  }

  toString(): string {
    return this.encoded;
  }

  /** Logs and JSON show the stored form, which is also what a resume cursor needs. */
  toJSON(): string {
    return this.encoded;
  }
}

/** Leading complete parts of a composite key; scans with it match keys that start with them. */
export class PrimaryKeyPrefix {
  private constructor(readonly encoded: string) {}

  static of(...leadingParts: string[]): PrimaryKeyPrefix {
    return new PrimaryKeyPrefix(PrimaryKey.of(...leadingParts).encoded + PART_SEPARATOR);
  }
}

/** What callers pass as a key: a PrimaryKey, or a string taken as a single raw part. */
export type PrimaryKeyInput = string | PrimaryKey;

/**
 * What callers pass as a scan prefix: a PrimaryKeyPrefix (whole leading parts), or a string that
 * the first (or only) part must start with.
 */
export type PrimaryKeyPrefixInput = string | PrimaryKeyPrefix;

export function primaryKey(...parts: string[]): PrimaryKey {
  return PrimaryKey.of(...parts);
}

export function primaryKeyPrefix(...leadingParts: string[]): PrimaryKeyPrefix {
  return PrimaryKeyPrefix.of(...leadingParts);
}

/** The stored (escaped) form of a key input, without building a PrimaryKey for plain strings. */
export function encodePrimaryKey(input: PrimaryKeyInput): string {
  return input instanceof PrimaryKey ? input.encoded : encodePart(input);
}

/** The encoded byte-prefix for a scan; the empty string matches the whole table. */
export function encodePrimaryKeyPrefix(input: PrimaryKeyPrefixInput): string {
  if (input instanceof PrimaryKeyPrefix) {
    return input.encoded;
  }
  return input === '' ? '' : encodePart(input);
}

/** The primary key of singleton tables (CONVENTION.md). */
export const SINGLETON_PRIMARY_KEY = PrimaryKey.of('current');
