import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeFindings, RepositoryCopy } from './gate-test-support';

/*
 * What a new user tries first, on a copy of this repository (the real files are never edited): each
 * drift must be reported at the right file, line and column, with the fix proposed. Only the
 * findings a change adds are compared, so the scenarios hold whatever else the repository reports.
 */
describe('the gate on a copy of this repository', () => {
  let repository: RepositoryCopy;

  beforeEach(() => {
    repository = new RepositoryCopy();
  });

  afterEach(() => {
    repository.remove();
  });

  test('renaming timeout_ms in an OpenAPI document is reported at the renamed key', () => {
    let at = { line: 0, column: 0 };
    const added = repository.findingsAddedBy(() => {
      at = repository.replace(
        'openapi/downloader.yaml',
        'timeout_ms:',
        'timeoutMs:',
        'RenderRequest:',
      );
    });
    const where = `openapi/downloader.yaml:${at.line}:${at.column}`;
    expect(describeFindings(added)).toEqual([
      `${where} contract-coverage → timeout_ms`,
      `${where} convention → timeout_ms`,
    ]);
    expect(added[0].message).toContain('`timeoutMs` of schema `RenderRequest` has no row');
  });

  test('dropping a CONTRACT.md row is reported at the property it covered', () => {
    const spec = repository.read('openapi/downloader.yaml');
    const renderRequest = spec.indexOf('RenderRequest:');
    const keyLine = spec.slice(0, spec.indexOf('timeout_ms:', renderRequest)).split('\n');
    const contract = repository.read('CONTRACT.md');
    const row = /^\| timeout_ms +\|.*\n/m.exec(
      contract.slice(contract.indexOf('Schema `RenderRequest`')),
    );
    expect(row).not.toBeNull();
    const added = repository.findingsAddedBy(() => {
      repository.replace('CONTRACT.md', row?.[0] ?? '', '', 'Schema `RenderRequest`');
    });
    // The generated artifacts still carry the name the table lost: the served document and the Go
    // client's json tag are reported too.
    expect(describeFindings(added)).toEqual([
      expect.stringMatching(/^generated\/downloader\/openapi\.json:\d+:\d+ generated-names$/),
      expect.stringMatching(
        /^generated\/go\/downloader\/model_render_request\.go:\d+:\d+ go-json-tags$/,
      ),
      `openapi/downloader.yaml:${keyLine.length}:${keyLine[keyLine.length - 1].length + 1} contract-coverage`,
    ]);
    expect(added[2].message).toContain('"#### Schema `RenderRequest`" table');
  });

  test('camelCased names in generated code and templates are reported where they appear', () => {
    let definitions = { line: 0, column: 0 };
    let client = { line: 0, column: 0 };
    let template = { line: 0, column: 0 };
    const added = repository.findingsAddedBy(() => {
      definitions = repository.replace(
        'generated/scheduler/operation-definitions.ts',
        "'worker_id'",
        "'workerId'",
      );
      client = repository.replace(
        'generated/scheduler/client.ts',
        'worker_id: query.worker_id',
        'workerId: query.workerId',
      );
      template = repository.replace(
        'templates/typescript-contract/client.mustache',
        '{{baseName}}: query.{{baseName}}',
        '{{paramName}}: query.{{paramName}}',
        '#queryParams',
      );
    });
    expect(describeFindings(added)).toEqual([
      `generated/scheduler/client.ts:${client.line}:${client.column} generated-names → worker_id`,
      `generated/scheduler/client.ts:${client.line}:${client.column + 16} generated-names → worker_id`,
      `generated/scheduler/operation-definitions.ts:${definitions.line}:${definitions.column + 1} generated-names → worker_id`,
      `templates/typescript-contract/client.mustache:${template.line}:${template.column} generated-names → {{baseName}}`,
      `templates/typescript-contract/client.mustache:${template.line}:${template.column + 21} generated-names → {{baseName}}`,
    ]);
  });

  test('a bare boolean field is reported in the spec and in its CONTRACT.md row', () => {
    let property = { line: 0, column: 0 };
    let row = { line: 0, column: 0 };
    const contract = repository.read('CONTRACT.md');
    const objectIdRow = /^\| object_id +\|/m.exec(
      contract.slice(contract.indexOf('Schema `WebPageObject`')),
    );
    expect(objectIdRow).not.toBeNull();
    const added = repository.findingsAddedBy(() => {
      property = repository.replace(
        'openapi/components.yaml',
        'object_id:',
        'rendered:\n          type: boolean\n        object_id:',
        'WebPageObject:\n',
      );
      row = repository.replace(
        'CONTRACT.md',
        objectIdRow?.[0] ?? '',
        `| rendered | boolean | no | no | A bare adjective. |\n${objectIdRow?.[0] ?? ''}`,
        'Schema `WebPageObject`',
      );
    });
    expect(describeFindings(added)).toEqual([
      `CONTRACT.md:${row.line}:${row.column + 2} convention → is_rendered`,
      // Not regenerated yet: the Go client's WebPageObject has no tag for the new row.
      expect.stringMatching(
        /^generated\/go\/downloader\/model_web_page_object\.go:\d+:\d+ go-json-tags$/,
      ),
      `openapi/components.yaml:${property.line}:${property.column} convention → is_rendered`,
    ]);
    expect(added[0].message).toBe('boolean `rendered` must start with `is_`, `should_`, `has_`');
  });

  test("a 'crs:x:y' key in a service is reported at the literal", () => {
    const added = repository.findingsAddedBy(() => {
      repository.write(
        'services/downloader/legacy-key.ts',
        "// A key from before the rename.\nexport const legacyKey = `crs:x:y`;\nexport const other = 'crs:x:y';\n",
      );
    });
    expect(describeFindings(added)).toEqual([
      'services/downloader/legacy-key.ts:2:26 storage-key → downloader:x:y',
      'services/downloader/legacy-key.ts:3:22 storage-key → downloader:x:y',
    ]);
    expect(added[0].message).toContain('`crs:` is never a key prefix');
  });

  test('a deprecated mark on one side only is reported at the CONTRACT.md row', () => {
    const contract = repository.read('CONTRACT.md');
    const tableStart = contract.indexOf('#### Schema `RenderRequest`');
    const rowLine = contract.slice(0, contract.indexOf('| should_store ', tableStart)).split('\n');
    const where = `CONTRACT.md:${rowLine.length}:3`;
    const specOnly = repository.findingsAddedBy(() => {
      repository.replace(
        'openapi/downloader.yaml',
        '        should_store:\n          type: boolean\n',
        '        should_store:\n          type: boolean\n          deprecated: true\n',
        'RenderRequest:',
      );
    });
    expect(describeFindings(specOnly)).toEqual([`${where} contract-coverage`]);
    expect(specOnly[0].message).toContain("this row's note does not start with `deprecated`");
    const both = repository.findingsAddedBy(() => {
      repository.replace(
        'CONTRACT.md',
        'Default true. Forced to false inside entry C.',
        '**deprecated** (v1.1): objects are always stored.',
        'Schema `RenderRequest`',
      );
    });
    expect(describeFindings(both)).toEqual([]);
    expect(describeFindings(repository.findings(['contract-coverage']))).not.toContain(
      `${where} contract-coverage`,
    );
  });

  test('frozen contracts under openapi/frozen/ are history the gate does not read', () => {
    const added = repository.findingsAddedBy(() => {
      mkdirSync(join(repository.root, 'openapi/frozen/v0'), { recursive: true });
      repository.write(
        'openapi/frozen/v0/downloader.yaml',
        repository.read('openapi/downloader.yaml').replace(/timeout_ms:/g, 'timeoutMs:'),
      );
    });
    expect(describeFindings(added)).toEqual([]);
  });

  test('a camelCased property in a served openapi.json is reported where it is', () => {
    let at = { line: 0, column: 0 };
    const added = repository.findingsAddedBy(() => {
      at = repository.replace(
        'generated/scheduler/openapi.json',
        '"worker_id": {',
        '"workerId": {',
      );
    });
    expect(describeFindings(added)).toEqual([
      `generated/scheduler/openapi.json:${at.line}:${at.column} generated-names → worker_id`,
    ]);
    expect(added[0].message).toContain('in the served document is not a row of CONTRACT.md');
  });
});
