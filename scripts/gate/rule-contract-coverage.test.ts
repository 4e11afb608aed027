import { describeFindings, fixtureFindings } from './gate-test-support';

describe('contract-coverage', () => {
  test('passes when CONTRACT.md and openapi/ agree (subsets, allOf, named enums, prose tables)', () => {
    expect(describeFindings(fixtureFindings('contract-coverage', 'pass'))).toEqual([]);
  });

  test('reports every drift between CONTRACT.md and openapi/ at the side to fix', () => {
    const findings = fixtureFindings('contract-coverage', 'fail');
    expect(describeFindings(findings)).toEqual([
      'CONTRACT.md:7:15 contract-coverage → query',
      'CONTRACT.md:10:6 contract-coverage → GET /v1/lease',
      'CONTRACT.md:20:14 contract-coverage → integer',
      'CONTRACT.md:23:36 contract-coverage → yes',
      'CONTRACT.md:25:42 contract-coverage → no',
      'CONTRACT.md:26:3 contract-coverage',
      'CONTRACT.md:28:6 contract-coverage → LeaseTask',
      'CONTRACT.md:36:3 contract-coverage',
      'CONTRACT.md:51:13 contract-coverage',
      'CONTRACT.md:52:17 contract-coverage → enum fail_reason',
      'CONTRACT.md:52:17 contract-coverage → tls_failed',
      'CONTRACT.md:76:6 contract-coverage',
      'CONTRACT.md:86:18 contract-coverage → enum fetch_status',
      'openapi/broken.yaml:7:1 contract-coverage',
      'openapi/components.yaml:10:23 contract-coverage → invalid_request',
      'openapi/components.yaml:29:46 contract-coverage',
      'openapi/demo.yaml:15:17 contract-coverage → task_count',
      'openapi/demo.yaml:30:17 contract-coverage',
      'openapi/demo.yaml:41:17 contract-coverage',
      'openapi/demo.yaml:53:9 contract-coverage → timeout_ms',
      'openapi/demo.yaml:57:31 contract-coverage',
      'openapi/demo.yaml:69:9 contract-coverage',
      'openapi/demo.yaml:71:5 contract-coverage',
      'openapi/demo.yaml:79:9 contract-coverage',
      'openapi/demo.yaml:85:9 contract-coverage → enum fetch_status (done, empty)',
      'openapi/demo.yaml:88:5 contract-coverage',
    ]);
    const messageAt = (file: string, line: number) =>
      findings.find((item) => item.file === file && item.line === line)?.message;
    expect(messageAt('openapi/demo.yaml', 53)).toContain(
      '`timeoutMs` of schema `LeaseTask` has no row',
    );
    expect(messageAt('openapi/demo.yaml', 53)).toContain('CONTRACT.md:21:3');
    expect(messageAt('CONTRACT.md', 20)).toContain('openapi/demo.yaml:51:9');
    expect(messageAt('CONTRACT.md', 26)).toContain('row `retry_count` has no counterpart');
    expect(messageAt('openapi/demo.yaml', 71)).toContain('no "#### Schema `LinkItem`" table');
    expect(messageAt('openapi/demo.yaml', 71)).toContain('has 2 properties but');
    expect(messageAt('openapi/demo.yaml', 79)).toContain('property `url` appears twice');
    expect(messageAt('openapi/demo.yaml', 88)).toContain('has 1 property but');
    expect(messageAt('openapi/demo.yaml', 30)).toContain('path parameter `seed_id`');
    expect(messageAt('openapi/components.yaml', 29)).toContain('enum schema `FailReason`');
    expect(messageAt('openapi/broken.yaml', 7)).toContain('not valid YAML');
    expect(messageAt('CONTRACT.md', 86)).toContain('one field name is one enum everywhere');
    expect(findings.filter((item) => item.line === 52).map((item) => item.message)).toEqual([
      "schema `ErrorBody`'s `fail_reason` (openapi/components.yaml:25:9) carries `tls_failed`, " +
        "which this row's subset does not list",
      'subset value `dns_failed` is not in "#### Enum `fail_reason`"',
    ]);
  });
});
