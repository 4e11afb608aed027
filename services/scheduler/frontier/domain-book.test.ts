import { DomainBook } from './domain-book';
import { RuleBook } from './rule-book';

describe('DomainBook.obtain', () => {
  it('answers each domain its own schedule, created once, whatever the order of asking', () => {
    const book = new DomainBook({
      rules: new RuleBook(),
      inFlightCap: 2,
      onNegativeCountPrevented: () => undefined,
    });
    const first = book.obtain('a.example');
    expect(book.obtain('a.example')).toBe(first);
    const other = book.obtain('b.example');
    expect(other).not.toBe(first);
    expect(other.domain).toBe('b.example');
    // The same name built anew (not the string first asked with) still finds the schedule.
    expect(book.obtain(['a', 'example'].join('.'))).toBe(first);
    expect(book.obtain('b.example')).toBe(other);
    expect(book.get('a.example')).toBe(first);
    expect(book.size).toBe(2);
  });
});
