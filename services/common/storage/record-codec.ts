import { Packr } from 'msgpackr';
import type { DocumentCodec } from './document-codec';
import { assertConventionalField, isConventionalTime } from './document-convention';
import { StorageConventionError } from './storage-errors';

/*
 * A compact codec for hot tables: the document's fields are declared once, in order, and a document
 * is stored as the MessagePack array of its values in that order — no field names on disk, no
 * sorting, no walk over the document per write. The declaration is checked against CONVENTION.md
 * when the codec is built (each name, and the type rules for the kind it declares); each write
 * then checks only that every value has its declared kind, which costs a `typeof` per field.
 *
 * Properties of a document that are not declared are never stored: a codec persists exactly the
 * fields it declares, whatever object it is handed.
 *
 * Evolution: fields are only appended, and an appended field must be nullable — a row written
 * before it existed reads back with null there. A row stored as JSON (the format every table used
 * before record codecs) is still read, so an existing data directory opens without a migration step.
 */

type ScalarKind = 'text' | 'integer' | 'number' | 'boolean' | 'time';

/** A declared field: a scalar kind (`?` = nullable), a list of records, or a nested record. */
export type FieldDeclaration =
  ScalarKind | `${ScalarKind}?` | RecordListDeclaration | NestedRecordDeclaration;

export interface RecordListDeclaration {
  readonly listOf: RecordFields<never>;
}

export interface NestedRecordDeclaration {
  readonly recordOf: RecordFields<never>;
}

/** Every field of `T`, in storage order. */
export type RecordFields<T> = { readonly [Name in keyof T]-?: FieldDeclaration };

/** A field holding a list of records (each declared like a document). */
export function listOf<Element>(fields: RecordFields<Element>): RecordListDeclaration {
  return { listOf: fields as RecordFields<never> };
}

/**
 * A field holding one record (declared like a document), or null. Always nullable: a nested record
 * is what a shape gains later (an appended field), and a row written before it reads back null.
 */
export function recordOf<Nested>(fields: RecordFields<Nested>): NestedRecordDeclaration {
  return { recordOf: fields as RecordFields<never> };
}

/** A value of each kind, for judging a declaration by the convention's type rules. */
const SAMPLES: Readonly<Record<ScalarKind, unknown>> = {
  text: 'text',
  integer: 1,
  number: 1.5,
  boolean: true,
  time: '2026-08-15T07:47:52Z',
};

const JSON_OBJECT_START = 0x7b; // '{': a row stored as a JSON document
const packr = new Packr({ useRecords: false, moreTypes: false });

interface CompiledField {
  name: string;
  isNullable: boolean;
  check: (value: unknown) => string | undefined;
  /** Only for lists of records: each element's record. */
  element?: CompiledRecord;
  /** Only for a nested record. */
  nested?: CompiledRecord;
}

interface CompiledRecord {
  fields: CompiledField[];
  /** A stored array of values back to the document (compileDecoder). */
  decode: (values: unknown[]) => Record<string, unknown>;
}

function describeKind(kind: ScalarKind): (value: unknown) => string | undefined {
  switch (kind) {
    case 'text':
      return (value) => (typeof value === 'string' ? undefined : 'must be a string');
    case 'integer':
      return (value) => (Number.isSafeInteger(value) ? undefined : 'must be a whole number');
    case 'number':
      return (value) =>
        typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a finite number';
    case 'boolean':
      return (value) => (typeof value === 'boolean' ? undefined : 'must be a boolean');
    case 'time':
      return (value) =>
        typeof value === 'string' && isConventionalTime(value)
          ? undefined
          : 'must be a UTC time like 2026-08-15T07:47:52Z';
  }
}

function compile(fields: RecordFields<never>, path: string): CompiledRecord {
  const compiled: CompiledField[] = [];
  for (const [name, declaration] of Object.entries(fields) as Array<[string, FieldDeclaration]>) {
    const fieldPath = `${path}.${name}`;
    if (typeof declaration === 'object' && 'recordOf' in declaration) {
      assertConventionalField(name, {}, fieldPath);
      compiled.push({
        name,
        isNullable: true,
        check: (value) =>
          typeof value === 'object' && !Array.isArray(value) ? undefined : 'must be an object',
        nested: compile(declaration.recordOf, fieldPath),
      });
      continue;
    }
    if (typeof declaration === 'object') {
      assertConventionalField(name, [], fieldPath);
      compiled.push({
        name,
        isNullable: false,
        check: (value) => (Array.isArray(value) ? undefined : 'must be a list'),
        element: compile(declaration.listOf, `${fieldPath}[]`),
      });
      continue;
    }
    const isNullable = declaration.endsWith('?');
    const kind = (isNullable ? declaration.slice(0, -1) : declaration) as ScalarKind;
    assertConventionalField(name, SAMPLES[kind], fieldPath);
    compiled.push({ name, isNullable, check: describeKind(kind) });
  }
  return { fields: compiled, decode: compileDecoder(compiled) };
}

/** Decodes a nested record or a list's element (convertRecords' conversion when reading). */
const decodeRecord = (record: CompiledRecord, values: unknown[]) => record.decode(values);

/**
 * A record's decoder, generated once per declaration: one object literal holding every declared
 * field, so that each document is allocated with its final shape. Built by adding the fields one
 * by one to `{}`, a url_task document (23 fields) grew through a property store reallocated on the
 * way: 2.1 µs per document decoded against 0.5 with the literal, MessagePack's own decoding
 * included (a scratch loop of 1M). The names are CONVENTION.md's snake_case, checked before this
 * runs, and quoted all the same; values are read by position, and a row written before a field
 * was appended reads null there.
 */
function compileDecoder(
  fields: readonly CompiledField[],
): (values: unknown[]) => Record<string, unknown> {
  const converters = fields.map((field) =>
    field.nested === undefined && field.element === undefined
      ? undefined
      : (value: unknown) => convertRecords(field, value, decodeRecord),
  );
  const properties = fields.map((field, index) => {
    const value = `(values.length > ${index} ? values[${index}] : null)`;
    const converted = converters[index] === undefined ? value : `converters[${index}](${value})`;
    return `${JSON.stringify(field.name)}: ${converted}`;
  });
  const build = new Function('converters', `return (values) => ({ ${properties.join(', ')} });`);
  return build(converters) as (values: unknown[]) => Record<string, unknown>;
}

function toValues(record: CompiledRecord, document: unknown, path: string): unknown[] {
  if (document === null || typeof document !== 'object') {
    throw new StorageConventionError(`${path} must be an object`);
  }
  const source = document as Record<string, unknown>;
  const values = new Array<unknown>(record.fields.length);
  for (let index = 0; index < record.fields.length; index += 1) {
    const field = record.fields[index];
    const value = source[field.name];
    if (value === null || value === undefined) {
      if (!field.isNullable) {
        throw new StorageConventionError(`field ${path}.${field.name} is required`);
      }
      values[index] = null;
      continue;
    }
    const problem = field.check(value);
    if (problem !== undefined) {
      throw new StorageConventionError(`field ${path}.${field.name} ${problem}`);
    }
    if (field.nested !== undefined) {
      values[index] = toValues(field.nested, value, `${path}.${field.name}`);
      continue;
    }
    values[index] =
      field.element === undefined
        ? value
        : listToValues(field.element, value as unknown[], path, field.name);
  }
  return values;
}

/**
 * A list of records' values. Apart from toValues's loop on purpose: a closure there that used the
 * loop's `field` put that variable in a context object allocated on every pass of the loop, list
 * or not — ~40 bytes per field of every document encoded (a url_task: ~900 of its ~1,170).
 */
function listToValues(
  element: CompiledRecord,
  list: readonly unknown[],
  path: string,
  name: string,
): unknown[][] {
  const values = new Array<unknown[]>(list.length);
  for (let position = 0; position < list.length; position += 1) {
    values[position] = toValues(element, list[position], `${path}.${name}[${position}]`);
  }
  return values;
}

/**
 * `value` of `field` with `convert` applied to its records: the nested record, or each element of
 * a list of records. Scalars and nulls pass as they are.
 */
function convertRecords<Converted>(
  field: CompiledField,
  value: unknown,
  convert: (record: CompiledRecord, item: never) => Converted,
): unknown {
  if (value === null) return null;
  if (field.nested !== undefined) return convert(field.nested, value as never);
  if (field.element !== undefined) {
    const element = field.element;
    return (value as never[]).map((item) => convert(element, item));
  }
  return value;
}

function toValuesUnchecked(record: CompiledRecord, document: unknown): unknown[] {
  const source = document as Record<string, unknown>;
  return record.fields.map((field) =>
    convertRecords(field, source[field.name] ?? null, toValuesUnchecked),
  );
}

/** A JSON document of the older format, reduced to the declared fields. */
function fromObject(
  record: CompiledRecord,
  source: Record<string, unknown>,
): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const field of record.fields) {
    document[field.name] = convertRecords(field, source[field.name] ?? null, fromObject);
  }
  return document;
}

/** Builds the codec of one document shape; throws StorageConventionError on a bad declaration. */
export function recordCodec<T>(fields: RecordFields<T>): DocumentCodec<T> {
  const record = compile(fields as RecordFields<never>, '$');
  return {
    encode: (value) => packr.pack(toValues(record, value, '$')),
    encodeForComparison: (value) => packr.pack(toValuesUnchecked(record, value)),
    decode: (bytes, start = 0) =>
      (bytes[start] === JSON_OBJECT_START
        ? fromObject(record, JSON.parse(bytes.toString('utf8', start)) as Record<string, unknown>)
        : record.decode(packr.unpack(bytes, { start }) as unknown[])) as T,
  };
}
