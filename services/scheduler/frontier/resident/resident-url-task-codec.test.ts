import { StorageConventionError } from '../../../common/storage/storage-errors';
import type { UrlTaskDocument } from '../frontier-documents';
import { urlTaskCodec } from '../frontier-tables';
import { bareTask, fullTask } from '../../testing/url-task-fixtures';
import {
  columnsOfRecord,
  isResidentUrlTaskRecord,
  residentUrlTaskCodec,
} from './resident-url-task-codec';
import { ResidentUrlTable, ResidentValueError } from './resident-url-table';

describe('residentUrlTaskCodec', () => {
  it('gives back a document with every field set and one with every nullable field null', () => {
    for (const task of [fullTask(), bareTask()]) {
      const record = residentUrlTaskCodec.encode(task);
      expect(isResidentUrlTaskRecord(record)).toBe(true);
      const decoded = residentUrlTaskCodec.decode(record);
      expect(decoded).toEqual(task);
      expect(Object.keys(decoded).sort()).toEqual(Object.keys(task).sort());
    }
  });

  it('carries what the table reads from a checked document: the same url_hash words and numbers', () => {
    const table = new ResidentUrlTable();
    for (const task of [fullTask(), bareTask()]) {
      const checked = table.check(task);
      const carried = columnsOfRecord(residentUrlTaskCodec.encode(task));
      expect([...carried.hashWords]).toEqual([...checked.hashWords]);
      expect(carried.numbers).toEqual(checked.numbers);
    }
  });

  it('reads a record at an offset, and a url_task in the keyspace format (a journal from before)', () => {
    const task = fullTask();
    const record = residentUrlTaskCodec.encode(task);
    expect(residentUrlTaskCodec.decode(Buffer.concat([Buffer.from('xyz'), record]), 3)).toEqual(
      task,
    );
    const older = urlTaskCodec.encode(task);
    expect(isResidentUrlTaskRecord(older)).toBe(false);
    expect(residentUrlTaskCodec.decode(older)).toEqual(task);
  });

  it('refuses what the keyspace codec refuses, and what the resident table could not hold', () => {
    const kinds: Array<[Partial<Record<keyof UrlTaskDocument, unknown>>, RegExp]> = [
      [{ url: 7 }, /\$\.url must be a string/],
      [{ attempt_count: 1.5 }, /\$\.attempt_count must be a whole number/],
      [{ priority_rank: '3' }, /\$\.priority_rank must be a whole number/],
      [{ is_in_due_index: 'yes' }, /\$\.is_in_due_index must be a boolean/],
      [{ due_at: null }, /\$\.due_at is required/],
      [{ etag: undefined }, /\$\.etag is missing/],
      [{ fetched_at: 1_700_000_000 }, /\$\.fetched_at must be a UTC time/],
    ];
    for (const [fields, message] of kinds) {
      const task = { ...fullTask(), ...fields } as UrlTaskDocument;
      expect(() => residentUrlTaskCodec.encode(task)).toThrow(StorageConventionError);
      expect(() => residentUrlTaskCodec.encode(task)).toThrow(message);
    }
    for (const fields of [{ url_hash: 'not-a-hash' }, { updated_at: '2026-02-30T00:00:00Z' }]) {
      expect(() => residentUrlTaskCodec.encode({ ...fullTask(), ...fields })).toThrow(
        ResidentValueError,
      );
    }
  });

  it('refuses a record cut short rather than reading past its end', () => {
    const record = residentUrlTaskCodec.encode(fullTask());
    expect(() => residentUrlTaskCodec.decode(record.subarray(0, record.length - 3))).toThrow(
      /runs past its end/,
    );
    expect(() => residentUrlTaskCodec.decode(record.subarray(0, 40))).toThrow(ResidentValueError);
    expect(() => residentUrlTaskCodec.decode(Buffer.concat([record, Buffer.from([0])]))).toThrow(
      /1 bytes past its end/,
    );
    const otherLayout = Buffer.from(record);
    otherLayout[1] = 2;
    expect(() => residentUrlTaskCodec.decode(otherLayout)).toThrow(/layout 1/);
  });
});
