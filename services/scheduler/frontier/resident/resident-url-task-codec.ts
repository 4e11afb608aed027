import type { DocumentCodec } from '../../../common/storage/document-codec';
import { StorageConventionError } from '../../../common/storage/storage-errors';
import type { ParkReason, UrlTaskDocument } from '../frontier-documents';
import { urlTaskCodec } from '../frontier-tables';
import { timeTextOf } from '../time-text';
import { hexOfWords, readUrlHashWords } from '../url-hash-words';
import type { FailReason, UrlState } from '../wire-types';
import {
  ATTEMPT_COUNT,
  DISCOVERED_AT,
  DUE_AT,
  FETCHED_AT,
  LAST_MODIFIED_AT,
  LAST_RENDERED_AT,
  LEASE_EXPIRY_COUNT,
  NUMBER_COUNT,
  nullableNumber,
  nullableTime,
  PRIORITY_RANK,
  PRIORITY_RANK_OFFSET,
  readUrlTaskNumbers,
  ResidentValueError,
  REVISIT_INTERVAL_SECONDS,
  ROBOTS_RULE_VERIFIED_AT,
  SEED_PRIORITY_RANK,
  UPDATED_AT,
} from './url-task-numbers';

/*
 * How a resident url_task travels through the write-behind journal: as the resident table holds
 * it (docs/resident-frontier.md, step 5), not as the keyspace's record (MessagePack of the values,
 * times as text) that its owner then parses back. Written only to the journal of a store whose
 * url_task is resident; its owner alone reads it. Layout 1:
 *
 *   byte 0         0xc1, a byte MessagePack never uses: a record-codec row starts with an array
 *                  marker, a JSON row with `{`, so the owner tells the formats apart by it
 *   byte 1         the layout, 1
 *   bytes 2–17     url_hash as four unsigned 32-bit words, big-endian
 *   bytes 18–121   the numbers (url-task-numbers.ts), doubles, little-endian; NaN for null
 *   byte 122       flags: 1 = is_in_due_index
 *   bytes 123–     the texts in TEXT_FIELDS' order, each a signed 32-bit little-endian byte length
 *                  (-1: null) and its UTF-8 bytes
 */
const MARKER = 0xc1;
const LAYOUT = 1;
const HASH_AT = 2;
const NUMBERS_AT = HASH_AT + 16;
const FLAGS_AT = NUMBERS_AT + NUMBER_COUNT * 8;
const TEXTS_AT = FLAGS_AT + 1;
const IS_IN_DUE_INDEX_FLAG = 1;
const NULL_LENGTH = -1;

/** The texts, in their order in a record. */
const TEXT_FIELDS = [
  'url',
  'domain',
  'url_state',
  'applied_lease_id',
  'fail_reason',
  'park_reason',
  'object_id',
  'etag',
] as const satisfies ReadonlyArray<keyof UrlTaskDocument>;

/** Scratch of one encode (every use is synchronous). */
const encodeWords = new Uint32Array(4);
const encodeNumbers = new Float64Array(NUMBER_COUNT);
const TEXT_COUNT = TEXT_FIELDS.length;
const encodeLengths = new Int32Array(TEXT_COUNT);
const encodeTexts = new Array<string | null>(TEXT_COUNT).fill(null);

/** Whether `payload` (a stored value's payload) is a url_task in this layout. */
export function isResidentUrlTaskRecord(payload: Buffer): boolean {
  return payload.length > 0 && payload[0] === MARKER;
}

/** A url_task in this layout, the fields put reads from it: its url_hash's words and numbers. */
export function columnsOfRecord(payload: Buffer): { hashWords: Uint32Array; numbers: number[] } {
  assertLayout(payload);
  const hashWords = new Uint32Array(4);
  for (let word = 0; word < 4; word += 1) {
    hashWords[word] = payload.readUInt32BE(HASH_AT + word * 4);
  }
  const numbers = new Array<number>(NUMBER_COUNT);
  for (let index = 0; index < NUMBER_COUNT; index += 1) {
    numbers[index] = payload.readDoubleLE(NUMBERS_AT + index * 8);
  }
  return { hashWords, numbers };
}

/**
 * The codec of the resident url_task table (resident-table-reads.ts): encodes in the layout above,
 * checking each field's kind as the keyspace's record codec does (StorageConventionError) and
 * what the resident table could not hold exactly (ResidentValueError); decodes that layout and,
 * for journals written before it, the keyspace's.
 */
export const residentUrlTaskCodec: DocumentCodec<UrlTaskDocument> = {
  encode: encodeUrlTask,
  encodeForComparison: (task) => urlTaskCodec.encodeForComparison(task),
  decode: (bytes, start = 0) => {
    const payload = start === 0 ? bytes : bytes.subarray(start);
    return isResidentUrlTaskRecord(payload) ? decodeUrlTask(payload) : urlTaskCodec.decode(payload);
  },
};

function encodeUrlTask(task: UrlTaskDocument): Buffer {
  assertKinds(task);
  try {
    readUrlHashWords(task.url_hash, encodeWords);
  } catch (error) {
    throw new ResidentValueError((error as Error).message);
  }
  const numbers = readUrlTaskNumbers(task, encodeNumbers);
  // The texts by name, not by a loop over TEXT_FIELDS: a property read by a computed name is a
  // keyed lookup each, which made this encode as slow as the record codec's (a scratch loop).
  const texts = encodeTexts;
  texts[0] = task.url;
  texts[1] = task.domain;
  texts[2] = task.url_state;
  texts[3] = task.applied_lease_id;
  texts[4] = task.fail_reason;
  texts[5] = task.park_reason;
  texts[6] = task.object_id;
  texts[7] = task.etag;
  let byteCount = TEXTS_AT;
  for (let index = 0; index < TEXT_COUNT; index += 1) {
    const text = texts[index];
    const length = text === null ? NULL_LENGTH : Buffer.byteLength(text, 'utf8');
    encodeLengths[index] = length;
    byteCount += 4 + Math.max(length, 0);
  }
  const record = Buffer.allocUnsafe(byteCount);
  record[0] = MARKER;
  record[1] = LAYOUT;
  for (let word = 0; word < 4; word += 1) {
    record.writeUInt32BE(encodeWords[word], HASH_AT + word * 4);
  }
  for (let index = 0; index < NUMBER_COUNT; index += 1) {
    record.writeDoubleLE(numbers[index], NUMBERS_AT + index * 8);
  }
  record[FLAGS_AT] = task.is_in_due_index ? IS_IN_DUE_INDEX_FLAG : 0;
  let at = TEXTS_AT;
  for (let index = 0; index < TEXT_COUNT; index += 1) {
    const length = encodeLengths[index];
    record.writeInt32LE(length, at);
    at += 4;
    if (length > 0) at += record.write(texts[index] as string, at, length, 'utf8');
  }
  texts.fill(null);
  return record;
}

function decodeUrlTask(payload: Buffer): UrlTaskDocument {
  const { hashWords, numbers } = columnsOfRecord(payload);
  const texts = new Array<string | null>(TEXT_FIELDS.length);
  let at = TEXTS_AT;
  for (let index = 0; index < TEXT_FIELDS.length; index += 1) {
    const length = at + 4 <= payload.length ? payload.readInt32LE(at) : Number.NaN;
    at += 4;
    if (length === NULL_LENGTH) {
      texts[index] = null;
      continue;
    }
    if (!(length >= 0 && at + length <= payload.length)) {
      throw new ResidentValueError(`a url_task record's ${TEXT_FIELDS[index]} runs past its end`);
    }
    texts[index] = payload.toString('utf8', at, at + length);
    at += length;
  }
  if (at !== payload.length) {
    throw new ResidentValueError(`a url_task record has ${payload.length - at} bytes past its end`);
  }
  return {
    url: texts[0] as string,
    url_hash: hexOfWords(hashWords, 0, 4),
    domain: texts[1] as string,
    url_state: texts[2] as UrlState,
    priority_rank: nullableNumber(numbers[PRIORITY_RANK]),
    seed_priority_rank: nullableNumber(numbers[SEED_PRIORITY_RANK]),
    priority_rank_offset: numbers[PRIORITY_RANK_OFFSET],
    due_at: timeTextOf(numbers[DUE_AT]),
    is_in_due_index: (payload[FLAGS_AT] & IS_IN_DUE_INDEX_FLAG) !== 0,
    applied_lease_id: texts[3],
    attempt_count: numbers[ATTEMPT_COUNT],
    lease_expiry_count: numbers[LEASE_EXPIRY_COUNT],
    fail_reason: texts[4] as FailReason | null,
    park_reason: texts[5] as ParkReason | null,
    object_id: texts[6],
    etag: texts[7],
    last_modified_at: nullableTime(numbers[LAST_MODIFIED_AT]),
    fetched_at: nullableTime(numbers[FETCHED_AT]),
    revisit_interval_seconds: nullableNumber(numbers[REVISIT_INTERVAL_SECONDS]),
    discovered_at: timeTextOf(numbers[DISCOVERED_AT]),
    updated_at: timeTextOf(numbers[UPDATED_AT]),
    robots_rule_verified_at: nullableTime(numbers[ROBOTS_RULE_VERIFIED_AT]),
    last_rendered_at: nullableTime(numbers[LAST_RENDERED_AT]),
  };
}

function assertLayout(payload: Buffer): void {
  if (payload.length < TEXTS_AT || payload[0] !== MARKER || payload[1] !== LAYOUT) {
    throw new ResidentValueError(
      `not a url_task record of layout ${LAYOUT} (${payload.length} bytes, layout ${payload[1]})`,
    );
  }
}

/** The kinds the keyspace's record codec checks (frontier-tables.ts), with its error. */
function assertKinds(task: UrlTaskDocument): void {
  if (task === null || typeof task !== 'object') {
    throw new StorageConventionError('$ must be an object');
  }
  // Field by field by name (see encodeUrlTask); a time's form is checked by readUrlTaskNumbers.
  assertText('url', task.url, false);
  assertText('url_hash', task.url_hash, false);
  assertText('domain', task.domain, false);
  assertText('url_state', task.url_state, false);
  assertInteger('priority_rank', task.priority_rank, true);
  assertInteger('seed_priority_rank', task.seed_priority_rank, true);
  assertInteger('priority_rank_offset', task.priority_rank_offset, false);
  assertTime('due_at', task.due_at, false);
  if (typeof task.is_in_due_index !== 'boolean') {
    kindRefused('is_in_due_index', task.is_in_due_index, false, 'must be a boolean');
  }
  assertText('applied_lease_id', task.applied_lease_id, true);
  assertInteger('attempt_count', task.attempt_count, false);
  assertInteger('lease_expiry_count', task.lease_expiry_count, false);
  assertText('fail_reason', task.fail_reason, true);
  assertText('park_reason', task.park_reason, true);
  assertText('object_id', task.object_id, true);
  assertText('etag', task.etag, true);
  assertTime('last_modified_at', task.last_modified_at, true);
  assertTime('fetched_at', task.fetched_at, true);
  assertInteger('revisit_interval_seconds', task.revisit_interval_seconds, true);
  assertTime('discovered_at', task.discovered_at, false);
  assertTime('updated_at', task.updated_at, false);
  assertTime('robots_rule_verified_at', task.robots_rule_verified_at, true);
  assertTime('last_rendered_at', task.last_rendered_at, true);
}

function assertText(name: string, value: unknown, isNullable: boolean): void {
  if (typeof value !== 'string') kindRefused(name, value, isNullable, 'must be a string');
}

function assertInteger(name: string, value: unknown, isNullable: boolean): void {
  if (!Number.isSafeInteger(value)) kindRefused(name, value, isNullable, 'must be a whole number');
}

function assertTime(name: string, value: unknown, isNullable: boolean): void {
  if (typeof value !== 'string') {
    kindRefused(name, value, isNullable, 'must be a UTC time like 2026-08-15T07:47:52Z');
  }
}

/** Throws for `value` of field `name` unless it is a null the field allows. */
function kindRefused(name: string, value: unknown, isNullable: boolean, problem: string): void {
  if (value === null && isNullable) return;
  if (value === null || value === undefined) {
    // Not stored as null where it is missing: the table gives back exactly what it was given.
    throw new StorageConventionError(
      `field $.${name} is ${value === null ? 'required' : 'missing'}`,
    );
  }
  throw new StorageConventionError(`field $.${name} ${problem}`);
}
