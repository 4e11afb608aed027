import { describeFindings, fixtureFindings } from './gate-test-support';

describe('generated-names', () => {
  test('passes wire names, generated identifiers, schema/response names, operationIds and Go identifiers in Go templates', () => {
    expect(describeFindings(fixtureFindings('generated-names', 'pass'))).toEqual([]);
  });

  test('reports camelCased contract names in generated code and mangled names in templates (in Go templates: in strings and tags)', () => {
    const findings = fixtureFindings('generated-names', 'fail');
    expect(describeFindings(findings)).toEqual([
      'generated/demo/client.ts:5:23 generated-names → worker_id',
      'generated/demo/client.ts:5:41 generated-names → task_count',
      'generated/demo/client.ts:6:11 generated-names → has_console_error',
      'generated/demo/client.ts:9:33 generated-names → worker_id',
      'generated/demo/client.ts:9:43 generated-names → task_count',
      'generated/demo/client.ts:9:60 generated-names → task_count',
      'generated/demo/client.ts:10:30 generated-names → worker_id',
      'generated/demo/client.ts:11:25 generated-names → worker_id',
      'generated/demo/client.ts:12:7 generated-names → has_console_error',
      'generated/demo/client.ts:14:7 generated-names → error_code',
      'generated/demo/client.ts:14:19 generated-names → invalid_request',
      'generated/demo/openapi.json:10:21 generated-names → task_count',
      'generated/demo/openapi.json:22:11 generated-names → has_console_error',
      'generated/demo/openapi.json:23:54 generated-names → invalid_request',
      'templates/demo/client.mustache:3:44 generated-names → {{baseName}}',
      'templates/demo/client.mustache:6:52 generated-names → {{baseName}}',
      'templates/go-demo/model.mustache:2:31 generated-names → {{baseName}}',
      'templates/go-demo/model.mustache:3:22 generated-names → {{baseName}}',
    ]);
    expect(findings[0].message).toMatch(/^property `workerId` is the contract name `worker_id`/);
    expect(findings[2].message).toMatch(/^identifier `hasConsoleError`/);
    expect(findings[6].message).toMatch(/^string `workerId`/);
    expect(findings[11].message).toMatch(
      /^query parameter `taskCount` of GET \/v1\/lease in the served document is not a row/,
    );
    expect(findings[12].message).toMatch(
      /^property `hasConsoleError` of schema `HealthSignal` in the served document is not a row of CONTRACT\.md's "#### Schema `HealthSignal`"/,
    );
    expect(findings[13].message).toMatch(/^enum value `invalidRequest` of the served document/);
    expect(findings[14].message).toContain('`{{paramName}}`');
    expect(findings[15].message).toContain('`{{name}}`');
  });
});
