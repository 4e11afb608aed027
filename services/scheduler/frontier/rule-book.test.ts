import { contentHash } from '../../common/url';
import { ruleFor } from '../testing/contract-fixtures';
import type { StoredDomainRule } from './frontier-documents';
import { RuleBook } from './rule-book';

function storedRule(domain: string, robotsText: string | null): StoredDomainRule {
  return { ...ruleFor(domain, { robots_txt: robotsText }), received_at: '2026-08-15T07:00:00Z' };
}

describe('RuleBook', () => {
  it("summarises each rule's robots.txt by its content_hash, the same for the same text", () => {
    const book = new RuleBook();
    const shared = 'User-agent: *\nDisallow: /private/\n';
    const first = book.remember(storedRule('a.example', shared));
    const second = book.remember(storedRule('b.example', shared));
    const other = book.remember(storedRule('c.example', `${shared}Disallow: /tmp/\n`));
    expect(first.robotsTextHash).toBe(contentHash(shared));
    expect(second.robotsTextHash).toBe(contentHash(shared));
    expect(other.robotsTextHash).toBe(contentHash(`${shared}Disallow: /tmp/\n`));
    expect(book.remember(storedRule('d.example', null)).robotsTextHash).toBeNull();
    expect(book.remember(storedRule('e.example', '')).robotsTextHash).toBeNull();
    // A domain's new rule with a new file: the new file's hash.
    expect(book.remember(storedRule('a.example', 'User-agent: *\n')).robotsTextHash).toBe(
      contentHash('User-agent: *\n'),
    );
    expect(book.get('a.example')?.robotsTextHash).toBe(contentHash('User-agent: *\n'));
  });

  it('hashes right past the texts it keeps: long files, and more files than it holds', () => {
    const book = new RuleBook();
    const long = `User-agent: *\n${'Disallow: /a-long-path/\n'.repeat(2_000)}`;
    expect(long.length).toBeGreaterThan(16 * 1024);
    expect(book.remember(storedRule('long.example', long)).robotsTextHash).toBe(contentHash(long));
    const texts = Array.from({ length: 2_500 }, (_, index) => `Disallow: /p${index}/\n`);
    texts.forEach((text, index) => book.remember(storedRule(`d${index}.example`, text)));
    // Asked again after the memo was cleared (twice), and for texts it still holds.
    const wrong = texts.filter(
      (text, index) =>
        book.remember(storedRule(`d${index}.example`, text)).robotsTextHash !== contentHash(text),
    );
    expect(wrong).toEqual([]);
  });
});
