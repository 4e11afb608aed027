import { ManualClock } from '../testing/manual-clock';
import { DomainBook } from './domain-book';
import { DomainRuntimeRows } from './domain-runtime-rows';
import type { FrontierTables } from './frontier-tables';
import { RuleBook } from './rule-book';
import { WriteBatch } from './write-batch';

function bookWithChanges(domains: readonly string[]): DomainBook {
  const book = new DomainBook({
    rules: new RuleBook(),
    inFlightCap: 2,
    onNegativeCountPrevented: () => undefined,
  });
  for (const domain of domains) book.markRuntimeChanged(book.obtain(domain));
  return book;
}

describe('domain_runtime rows written behind', () => {
  it('takes the schedules changed longest ago first, each once, however often it changed', () => {
    const book = bookWithChanges(['a.example', 'b.example', 'c.example']);
    book.markRuntimeChanged(book.obtain('a.example'));
    expect(book.takeRuntimeChanged(2).map((schedule) => schedule.domain)).toEqual([
      'a.example',
      'b.example',
    ]);
    book.markRuntimeChanged(book.obtain('a.example'));
    expect(book.takeRuntimeChanged().map((schedule) => schedule.domain)).toEqual([
      'c.example',
      'a.example',
    ]);
    expect(book.takeRuntimeChanged()).toEqual([]);
  });

  it('writes a slice per interval, and every row left at a clean stop', () => {
    const book = bookWithChanges(['a.example', 'b.example', 'c.example', 'd.example', 'e.example']);
    const clock = new ManualClock();
    const rows = new DomainRuntimeRows({
      // WriteBatch only keys its writes by the table: no storage is needed to count them.
      tables: { domainRuntime: {} } as FrontierTables,
      book,
      clock,
      writeIntervalMs: 1_000,
      writeBehindRowLimit: 2,
    });
    const writesAt = (nowMs: number, isForced = false): number => {
      const batch = new WriteBatch();
      rows.stageWriteBehind(batch, nowMs, { isForced });
      return batch.writeCount;
    };
    const startMs = clock.nowMs();
    expect(writesAt(startMs)).toBe(2);
    expect(writesAt(startMs + 999)).toBe(0);
    expect(writesAt(startMs + 1_000)).toBe(2);
    book.markRuntimeChanged(book.obtain('a.example'));
    expect(writesAt(startMs + 1_001, true)).toBe(2);
    expect(writesAt(startMs + 5_000, true)).toBe(0);
  });
});
