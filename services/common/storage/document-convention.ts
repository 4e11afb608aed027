import {
  BOOLEAN_PREFIXES,
  DURATION_WORDS,
  GRANDFATHERED_NAMES,
  UNIT_SUFFIXES,
} from './convention-lists';
import { findNamingViolation } from './naming-convention';
import { StorageConventionError } from './storage-errors';

/*
 * Every document written through the keyspace is checked before it reaches disk, so that names on
 * disk follow CONVENTION.md whichever service wrote them. One walk applies, to every object field:
 *   - the word rules (naming-convention.ts);
 *   - the type rules the gate applies to contract fields, judged from the stored value: a boolean
 *     starts with is_/should_/has_; a number whose name holds a duration word ends in a unit
 *     (_ms, _seconds, …) and a unit suffix holds a number; a name ending in _at holds a time string
 *     `2026-08-15T07:47:52Z` (seconds precision, always Z); an array is named …_list (except the
 *     grandfathered names). A null value passes the type rules: it means "not set";
 *   - only plain JSON values (no Date, Map, class instances, NaN, functions, cycles), so a document
 *     reads back exactly as written.
 * A consequence: a map keyed by data (domains, URLs) cannot be stored as an object; store a
 * `…_list` of rows instead. Field names repeat, so their word-rule verdicts are cached.
 */

const TIME_SUFFIX = '_at';
const LIST_SUFFIX = '_list';
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const DURATION_WORD_SET: ReadonlySet<string> = new Set(DURATION_WORDS);
const GRANDFATHERED: ReadonlySet<string> = new Set(GRANDFATHERED_NAMES);

/** Deep enough for any real document; shallow enough to turn a cycle into an error, not a crash. */
const MAX_DEPTH = 64;

/** Bounded so that a stream of distinct names cannot grow memory forever. */
const MAX_CACHED_NAMES = 10_000;
const conformingFieldNames = new Set<string>();

function assertFieldName(name: string, path: string): void {
  if (conformingFieldNames.has(name)) {
    return;
  }
  const violation = findNamingViolation(name);
  if (violation !== undefined) {
    throw new StorageConventionError(`field ${path}: ${violation}`);
  }
  if (conformingFieldNames.size >= MAX_CACHED_NAMES) {
    conformingFieldNames.clear();
  }
  conformingFieldNames.add(name);
}

/** Why `value` cannot be stored under `name`, or undefined. */
function findTypeViolation(name: string, value: unknown): string | undefined {
  if (value === null) {
    return undefined;
  }
  const unit = UNIT_SUFFIXES.find((suffix) => name.endsWith(suffix));
  if (typeof value === 'boolean' && !BOOLEAN_PREFIXES.some((prefix) => name.startsWith(prefix))) {
    return `holds a boolean, so its name must start with ${BOOLEAN_PREFIXES.join(', ')}`;
  }
  if (typeof value === 'number' && unit === undefined) {
    const durationWord = name.split('_').find((word) => DURATION_WORD_SET.has(word));
    if (durationWord !== undefined) {
      return `is a duration ("${durationWord}"), so its name must end in ${UNIT_SUFFIXES.join(', ')}`;
    }
  }
  if (unit !== undefined && typeof value !== 'number') {
    return `ends in the unit ${unit}, so it must hold a number`;
  }
  if (name.endsWith(TIME_SUFFIX) && !(typeof value === 'string' && UTC_TIME.test(value))) {
    return 'ends in _at, so it must hold a UTC time like 2026-08-15T07:47:52Z';
  }
  if (Array.isArray(value) && !name.endsWith(LIST_SUFFIX) && !GRANDFATHERED.has(name)) {
    return `holds an array, so its name must end in ${LIST_SUFFIX}`;
  }
  return undefined;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function assertConventionalValue(value: unknown, path: string, depth: number): void {
  if (depth > MAX_DEPTH) {
    throw new StorageConventionError(`document nests deeper than ${MAX_DEPTH} at ${path} (cycle?)`);
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) {
        throw new StorageConventionError(`${path} is ${value}, which JSON cannot store`);
      }
      return;
    case 'object':
      break;
    default:
      throw new StorageConventionError(`${path} is a ${typeof value}, which JSON cannot store`);
  }
  if (value === null) {
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => assertConventionalValue(item, `${path}[${index}]`, depth + 1));
    return;
  }
  if (!isPlainObject(value)) {
    throw new StorageConventionError(
      `${path} is a ${value.constructor?.name ?? 'non-plain object'}; store plain JSON (times as strings)`,
    );
  }
  for (const name of Object.keys(value)) {
    const fieldValue = value[name];
    if (fieldValue === undefined) {
      continue; // dropped by JSON, like an absent optional field
    }
    const fieldPath = `${path}.${name}`;
    assertFieldName(name, fieldPath);
    const typeViolation = findTypeViolation(name, fieldValue);
    if (typeViolation !== undefined) {
      throw new StorageConventionError(`field ${fieldPath} ${typeViolation}`);
    }
    assertConventionalValue(fieldValue, fieldPath, depth + 1);
  }
}

/** Throws a StorageConventionError naming the first offending path (`$.field_list[2].name`). */
export function assertConventionalDocument(document: unknown): void {
  assertConventionalValue(document, '$', 0);
}

/**
 * The same rules for a field declared ahead of any value (a record codec's field list): its name,
 * and the type rules judged from `sample`, a value of the kind the field will hold.
 */
export function assertConventionalField(name: string, sample: unknown, path: string): void {
  assertFieldName(name, path);
  const typeViolation = findTypeViolation(name, sample);
  if (typeViolation !== undefined) {
    throw new StorageConventionError(`field ${path} ${typeViolation}`);
  }
}

/** True when `text` is a time as documents store it: `2026-08-15T07:47:52Z`. */
export function isConventionalTime(text: string): boolean {
  return UTC_TIME.test(text);
}
