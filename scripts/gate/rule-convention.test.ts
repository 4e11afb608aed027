import { describeFindings, fixtureFindings } from './gate-test-support';

describe('convention', () => {
  test('passes conforming names (whitelist, standard names, grandfathered lists)', () => {
    expect(describeFindings(fixtureFindings('convention', 'pass'))).toEqual([]);
  });

  test('reports every CONVENTION.md violation in openapi/ and CONTRACT.md', () => {
    const findings = fixtureFindings('convention', 'fail');
    expect(describeFindings(findings)).toEqual([
      'CONTRACT.md:7:3 convention → is_rendered',
      'CONTRACT.md:14:3 convention → done',
      'CONTRACT.md:15:3 convention',
      'openapi/demo.yaml:10:17 convention → lease_ttl',
      'openapi/demo.yaml:22:9 convention → is_rendered',
      'openapi/demo.yaml:24:9 convention → timeout_ms',
      'openapi/demo.yaml:26:9 convention',
      'openapi/demo.yaml:28:9 convention → fetched_at',
      'openapi/demo.yaml:31:9 convention',
      'openapi/demo.yaml:33:9 convention → links_list',
      'openapi/demo.yaml:37:9 convention → schedule_count',
      'openapi/demo.yaml:39:9 convention',
      'openapi/demo.yaml:41:9 convention → configuration_note',
      'openapi/demo.yaml:45:18 convention → done',
      'openapi/demo.yaml:45:24 convention',
    ]);
    const messages = findings.map((item) => item.message);
    expect(messages[2]).toBe("enum value `fetch_status` equals its field's name");
    expect(messages[6]).toBe('`timeout_ms` ends in the unit `_ms` but is not a number');
    expect(messages[8]).toBe('`created_at` ends in `_at`, so it must be a date-time string');
    expect(messages[11]).toContain('short word `xyz`');
  });
});
