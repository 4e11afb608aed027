import { describeFindings, fixtureFindings } from './gate-test-support';

describe('service-wire-names', () => {
  test('passes camelCase internals, wire objects with contract names, and reasoned ignores', () => {
    expect(describeFindings(fixtureFindings('service-wire-names', 'pass'))).toEqual([]);
  });

  test('reports near misses sent or stored, and non-conforming keys of wire objects', () => {
    const findings = fixtureFindings('service-wire-names', 'fail');
    const file = 'services/downloader/report-loop.ts';
    expect(describeFindings(findings)).toEqual([
      `${file}:11:3 service-wire-names → worker_id`,
      `${file}:15:49 service-wire-names → worker_id`,
      `${file}:16:30 service-wire-names → lease_id`,
      `${file}:16:39 service-wire-names → fetched_at`,
      `${file}:17:19 service-wire-names → fetched_at`,
      `${file}:17:55 service-wire-names → url_count`,
      `${file}:18:56 service-wire-names → timeout_ms`,
      `${file}:19:39 service-wire-names → retry_message`,
      `${file}:19:59 service-wire-names → primary_key`,
      `${file}:20:24 service-wire-names → timeout_ms`,
      `${file}:21:39 service-wire-names → timeout_ms`,
      `${file}:23:30 service-wire-names → lease_id`,
    ]);
    const reasons = findings.map((item) => /\(([^)]*)\); wire/.exec(item.message)?.[1]);
    expect(reasons).toEqual([
      'the same words in another case or separator',
      'the same words in another case or separator',
      'the same words in another case or separator',
      'the same words in another case or separator',
      '1 edit away',
      'the same words in another order',
      'the contract name without its `_ms` suffix',
      undefined,
      undefined,
      'the same words in another case or separator',
      'the contract name with `_seconds` instead of `_ms`',
      'the same words in another case or separator',
    ]);
    expect(findings[7].message).toContain('forbidden truncation `msg`');
    expect(findings[11].message).toContain('gives no reason, so it does not apply');
  });
});
