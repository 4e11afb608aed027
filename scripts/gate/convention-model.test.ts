import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkNameWords, parseConvention } from './convention-model';
import { FIXTURES_DIRECTORY, REPOSITORY_ROOT } from './gate-test-support';

describe('the CONVENTION.md model', () => {
  const fixture = parseConvention(
    readFileSync(join(FIXTURES_DIRECTORY, 'convention', 'pass', 'CONVENTION.md'), 'utf8'),
  );

  test('reads every list from the document', () => {
    expect(fixture.findings).toEqual([]);
    expect([...fixture.allowedShortWords].sort()).toEqual(
      ['at', 'has', 'id', 'is', 'min', 'ms', 'rel', 'ttl', 'url', 'web'].sort(),
    );
    expect(fixture.truncations).toEqual([
      { words: ['sched'], replacement: 'schedule' },
      { words: ['msg'], replacement: 'message' },
      { words: ['config', 'value'], replacement: 'configuration' },
    ]);
    expect([...fixture.durationWords]).toEqual(['timeout', 'interval']);
    expect(fixture.unitSuffixes).toEqual(['_ms', '_seconds']);
    expect(fixture.booleanPrefixes).toEqual(['is_', 'should_', 'has_']);
    expect(fixture.tableSuffixes).toEqual(['_task', '_object', '_replica']);
    expect([...fixture.grandfatheredNames]).toEqual(['console_errors']);
  });

  test("reads the repository's CONVENTION.md completely", () => {
    const real = parseConvention(readFileSync(join(REPOSITORY_ROOT, 'CONVENTION.md'), 'utf8'));
    expect(real.findings).toEqual([]);
    expect(real.allowedShortWords.has('xhr')).toBe(true);
    expect(real.tableSuffixes).toContain('_replica');
    expect(real.unitSuffixes).toEqual(['_ms', '_seconds', '_minutes', '_hours', '_days']);
  });

  test('reports a missing list instead of checking against an empty one', () => {
    const broken = parseConvention(
      '# CONVENTION.md\n\n## Short words\n\n| word |\n|---|\n| at |\n',
    );
    expect(broken.findings.map((item) => item.message)).toContain(
      'CONVENTION.md has no table under a heading "Forbidden truncations"; the gate reads that list from it',
    );
    expect(broken.findings.every((item) => item.file === 'CONVENTION.md' && item.line === 1)).toBe(
      true,
    );
  });

  test('checks the word rules of a name', () => {
    expect(checkNameWords('min_interval_ms', fixture)).toEqual([]);
    expect(checkNameWords('retry_msg', fixture)).toEqual([
      { message: '`retry_msg` uses the forbidden truncation `msg`', suggestion: 'retry_message' },
    ]);
    expect(checkNameWords('minIntervalMs', fixture)[0].suggestion).toBe('min_interval_ms');
    expect(checkNameWords('for_rule', fixture)[0].message).toContain('short word `for`');
  });
});
