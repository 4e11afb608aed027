import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPOSITORY_ROOT, RepositoryCopy } from '../gate/gate-test-support';
import { formatChange, type ContractChange } from './breaking-change';
import { diffContract } from './contract-diff';
import { writeFrozenContract } from './frozen-contracts';
import { locateOasdiff } from './oasdiff-runner';

/*
 * Scenario tests of `npm run contract:diff`: a temporary copy of the real contract is frozen as v1,
 * edited the way a careless change would edit it, and compared — with the real oasdiff that
 * `make setup` installs. Each breaking kind must fail with a message naming what broke; additions
 * and deprecations must pass.
 */

const oasdiffBinary = locateOasdiff(REPOSITORY_ROOT);

/** A frozen copy of the real contract, to edit. */
class ContractCopy extends RepositoryCopy {
  constructor() {
    super(REPOSITORY_ROOT, ['CONTRACT.md', 'openapi']);
    // The repository's own frozen versions are history; the copy's only baseline is itself.
    rmSync(join(this.root, 'openapi', 'frozen'), { recursive: true, force: true });
    writeFrozenContract(this.root, 'v1', () => new Date('2026-12-01T00:00:00Z'));
  }

  /** Replaces the CONTRACT.md row of `name` in the table under `heading`. */
  replaceRow(heading: string, name: string, row: string | null): void {
    const text = this.read('CONTRACT.md');
    const start = text.indexOf(`\n${heading}\n`);
    const rowStart = text.indexOf(`\n| ${name} `, start);
    if (start < 0 || rowStart < 0) throw new Error(`no row ${name} under ${heading}`);
    const rowEnd = text.indexOf('\n', rowStart + 1);
    this.write(
      'CONTRACT.md',
      text.slice(0, rowStart) + (row === null ? '' : `\n${row}`) + text.slice(rowEnd),
    );
  }

  /** The 1-based CONTRACT.md line of the row of `name` under `heading`. */
  rowLine(heading: string, name: string): number {
    const text = this.read('CONTRACT.md');
    const rowStart = text.indexOf(`\n| ${name} `, text.indexOf(`\n${heading}\n`));
    return text.slice(0, rowStart + 1).split('\n').length;
  }

  /** Appends a row to the table under `heading`. */
  addRow(heading: string, row: string): void {
    const text = this.read('CONTRACT.md');
    const start = text.indexOf(`\n${heading}\n`);
    const tableEnd = text.indexOf('\n\n', text.indexOf('\n|', start));
    this.write('CONTRACT.md', `${text.slice(0, tableEnd)}\n${row}${text.slice(tableEnd)}`);
  }

  diff(): { breaking: ContractChange[]; passing: ContractChange[] } {
    const result = diffContract({ root: this.root, oasdiffBinary });
    return {
      breaking: result.changes.filter((change) => change.isBreaking),
      passing: result.changes.filter((change) => !change.isBreaking),
    };
  }
}

function lines(changes: ContractChange[]): string[] {
  return changes.map(formatChange);
}

describe('npm run contract:diff', () => {
  let copy: ContractCopy;
  beforeEach(() => {
    copy = new ContractCopy();
  });
  afterEach(() => copy.remove());

  test('an unchanged contract has nothing to report', () => {
    expect(lines(copy.diff().breaking)).toEqual([]);
  });

  describe('fails on each kind of breaking change, naming it', () => {
    test('a renamed response field', () => {
      copy.replace(
        'openapi/scheduler.yaml',
        '        - etag\n',
        '        - entity_tag\n',
        'LeaseTask:',
      );
      copy.replace('openapi/scheduler.yaml', '        etag:', '        entity_tag:', 'LeaseTask:');
      copy.replaceRow(
        '#### Schema `LeaseTask`',
        'etag',
        '| entity_tag | string | yes | yes | The ETag last seen. |',
      );
      const { breaking } = copy.diff();
      expect(breaking.map((change) => change.checkId).sort()).toEqual([
        'contract-row-renamed',
        'response-required-property-removed',
      ]);
      const renamed = breaking.find((change) => change.checkId === 'contract-row-renamed')!;
      expect(renamed).toMatchObject({ file: 'CONTRACT.md', suggestion: 'etag' });
      expect(renamed.message).toMatch(/`entity_tag` replaces field `etag` of Schema `LeaseTask`/);
      const removed = breaking.find((change) => change.source === 'oasdiff')!;
      expect(removed.message).toContain('GET /v1/lease');
      expect(removed.message).toContain('`task_list/items/etag`');
      expect(removed.file).toBe('openapi/frozen/v1/scheduler.yaml');
    });

    test('a deleted optional request field', () => {
      const line = copy.rowLine('#### Schema `RenderRequest`', 'should_store');
      copy.replace(
        'openapi/downloader.yaml',
        '        should_store:\n          type: boolean\n          default: true\n          description: false = answer the object without storing it.\n',
        '',
      );
      copy.replaceRow('#### Schema `RenderRequest`', 'should_store', null);
      const { breaking } = copy.diff();
      expect(breaking[0].message).toContain(`frozen at openapi/frozen/v1/CONTRACT.md:${line}:3`);
      expect(lines(breaking)).toEqual([
        expect.stringMatching(
          /^CONTRACT\.md:\d+:\d+: error \[contract-row-deleted\] field `should_store` of Schema `RenderRequest` was deleted \(frozen at openapi\/frozen\/v1\/CONTRACT\.md:\d+:3\).*\(did you mean `should_store`\?\)$/,
        ),
        expect.stringMatching(
          /^openapi\/frozen\/v1\/downloader\.yaml:\d+:\d+: error \[request-property-removed\] POST \/v1\/render: removed the request property `should_store`/,
        ),
      ]);
    });

    test('a removed query parameter', () => {
      const leaseTtl =
        '        - name: lease_ttl_seconds\n          in: query\n          required: false\n          description: Seconds until the lease expires and unreported tasks are re-queued.\n          schema:\n            type: integer\n            minimum: 10\n            maximum: 3600\n            default: 120\n          example: 120\n';
      copy.replace('openapi/scheduler.yaml', leaseTtl, '');
      copy.replaceRow('#### Parameters `GET /v1/lease`', 'lease_ttl_seconds', null);
      const { breaking } = copy.diff();
      expect(breaking.map((change) => change.checkId).sort()).toEqual([
        'contract-row-deleted',
        'request-parameter-removed',
      ]);
      expect(breaking.map((change) => change.message).join('\n')).toMatch(
        /parameter `lease_ttl_seconds` of Parameters `GET \/v1\/lease` was deleted/,
      );
      expect(breaking.find((change) => change.source === 'oasdiff')!.message).toMatch(
        /GET \/v1\/lease: .*`lease_ttl_seconds`/,
      );
    });

    test('a removed endpoint', () => {
      const text = copy.read('openapi/scheduler.yaml');
      const start = text.indexOf('  /v1/seeds:\n');
      const end = text.indexOf('\n  /v1/', start + 1);
      copy.write('openapi/scheduler.yaml', text.slice(0, start) + text.slice(end + 1));
      const { breaking } = copy.diff();
      expect(breaking).toHaveLength(1);
      expect(breaking[0].checkId).toBe('api-path-removed-without-deprecation');
      expect(breaking[0].message).toMatch(/^POST \/v1\/seeds: /);
    });

    test('a narrowed enum (a value removed from the spec and from its value table)', () => {
      copy.replace('openapi/components.yaml', '        - navigation_timeout\n', '', 'FailReason:');
      copy.replaceRow('#### Enum `fail_reason`', 'navigation_timeout', null);
      const { breaking } = copy.diff();
      const ids = new Set(breaking.map((change) => change.checkId));
      expect(ids).toEqual(
        new Set([
          'contract-row-deleted',
          'request-property-enum-value-removed',
          'response-property-enum-value-removed',
        ]),
      );
      for (const change of breaking) expect(change.message).toContain('navigation_timeout');
    });

    test('a type change and a format change', () => {
      const line = copy.rowLine('#### Schema `RenderRequest`', 'timeout_ms');
      copy.replace(
        'openapi/downloader.yaml',
        'timeout_ms:\n          type: integer',
        'timeout_ms:\n          type: string',
        'RenderRequest:',
      );
      copy.replaceRow(
        '#### Schema `RenderRequest`',
        'timeout_ms',
        '| timeout_ms | string | no | no | Bounds. |',
      );
      copy.replace(
        'openapi/scheduler.yaml',
        'last_modified_at:\n          type: string\n          format: date-time\n',
        'last_modified_at:\n          type: string\n',
        'LeaseTask:',
      );
      const { breaking } = copy.diff();
      expect(lines(breaking)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            new RegExp(`CONTRACT\\.md:${line}:\\d+: error \\[contract-type-changed\\]`),
          ),
          expect.stringMatching(
            /error \[contract-type-changed\] the type of `timeout_ms` of Schema `RenderRequest` changed from `integer` to `string`/,
          ),
          expect.stringMatching(
            /\[request-property-type-changed\] POST \/v1\/render: .*`timeout_ms`.*`integer`.*`string`/,
          ),
          expect.stringMatching(
            /\[response-property-type-changed\] GET \/v1\/lease: .*last_modified_at.*date-time/,
          ),
        ]),
      );
    });

    test('a request field made required', () => {
      const line = copy.rowLine('#### Schema `RenderRequest`', 'should_store');
      copy.replace(
        'openapi/downloader.yaml',
        'required: [url]',
        'required: [url, should_store]',
        'RenderRequest:',
      );
      copy.replaceRow(
        '#### Schema `RenderRequest`',
        'should_store',
        '| should_store | boolean | yes | no | Default true. |',
      );
      const { breaking } = copy.diff();
      expect(breaking[0]).toMatchObject({ file: 'CONTRACT.md', line });
      expect(lines(breaking)).toEqual([
        expect.stringMatching(
          /^CONTRACT\.md:\d+:\d+: error \[contract-required-changed\] required of `should_store` of Schema `RenderRequest` changed from `no` to `yes`; old senders may leave it out \(did you mean `no`\?\)$/,
        ),
        expect.stringMatching(
          /^openapi\/downloader\.yaml:\d+:\d+: error \[request-property-became-required(-with-default)?\] POST \/v1\/render: .*`should_store`/,
        ),
      ]);
    });

    test('narrowed constraints: maxLength, maximum, pattern', () => {
      copy.replace(
        'openapi/downloader.yaml',
        'maxLength: 1024',
        'maxLength: 512',
        'RenderRequest:',
      );
      copy.replace(
        'openapi/downloader.yaml',
        'maximum: 120000',
        'maximum: 60000',
        'RenderRequest:',
      );
      copy.replace(
        'openapi/scheduler.yaml',
        "pattern: '^[A-Za-z0-9._-]{1,128}$'",
        "pattern: '^[a-z0-9-]{1,64}$'",
      );
      const ids = copy.diff().breaking.map((change) => change.checkId);
      expect(ids.sort()).toEqual([
        'request-parameter-pattern-changed',
        'request-property-max-decreased',
        'request-property-max-length-decreased',
      ]);
    });

    test('a CONTRACT.md row deleted while the spec keeps it', () => {
      copy.replaceRow('#### Storage keys', '`downloader:robots_txt_object:{domain}`', null);
      copy.replaceRow('#### Schema `ProbeResponse`', 'elapsed_ms', null);
      const { breaking } = copy.diff();
      expect(lines(breaking)).toEqual([
        expect.stringMatching(
          /^CONTRACT\.md:\d+:\d+: error \[contract-row-deleted\] field `elapsed_ms` of Schema `ProbeResponse` was deleted/,
        ),
        expect.stringMatching(
          /error \[contract-row-deleted\] key `downloader:robots_txt_object:\{domain\}` of the Storage keys table was deleted/,
        ),
      ]);
    });

    test('a nullable response field and a non-null request field', () => {
      copy.replaceRow(
        '#### Schema `ProbeResponse`',
        'elapsed_ms',
        '| elapsed_ms | integer | yes | yes | Time. |',
      );
      copy.replaceRow(
        '#### Schema `RenderRequest`',
        'wait_selector',
        '| wait_selector | string | no | no | Selector. |',
      );
      const messages = copy.diff().breaking.map((change) => change.message);
      expect(messages).toEqual([
        expect.stringMatching(
          /nullable of `wait_selector` of Schema `RenderRequest` changed from `yes` to `no`; old senders may send null/,
        ),
        expect.stringMatching(
          /nullable of `elapsed_ms` of Schema `ProbeResponse` changed from `no` to `yes`; old readers do not expect null/,
        ),
      ]);
    });
  });

  test('passes additions and deprecations', () => {
    // A new optional request field.
    copy.replace(
      'openapi/downloader.yaml',
      '        min_interval_ms:\n',
      '        should_block_media:\n          type: boolean\n          default: true\n        min_interval_ms:\n',
      'RenderRequest:',
    );
    copy.addRow(
      '#### Schema `RenderRequest`',
      '| should_block_media | boolean | no | no | Default true. |',
    );
    // A new response field.
    copy.replace(
      'openapi/downloader.yaml',
      '        elapsed_ms:\n',
      '        redirect_count:\n          type: integer\n          minimum: 0\n        elapsed_ms:\n',
      'ProbeResponse:',
    );
    copy.addRow(
      '#### Schema `ProbeResponse`',
      '| redirect_count | integer | no | no | Redirects followed. |',
    );
    // A new endpoint.
    copy.replace(
      'openapi/scheduler.yaml',
      '  /v1/seeds:\n',
      "  /v1/operator/pause-all:\n    post:\n      operationId: pauseAll\n      security:\n        - serviceToken: []\n      responses:\n        '204':\n          description: Paused.\n  /v1/seeds:\n",
    );
    // A new value of an enum that only travels in responses.
    copy.replace(
      'openapi/scheduler.yaml',
      'enum: [queued, leased, done, failed, waiting_for_rule, dropped]',
      'enum: [queued, leased, done, failed, waiting_for_rule, dropped, archived]',
    );
    copy.addRow('#### Enum `url_state`', '| archived | Kept for the record only. |');
    // A deprecated request field and a deprecated parameter.
    copy.replace(
      'openapi/downloader.yaml',
      '        should_store:\n          type: boolean\n',
      '        should_store:\n          type: boolean\n          deprecated: true\n',
      'RenderRequest:',
    );
    copy.replaceRow(
      '#### Schema `RenderRequest`',
      'should_store',
      '| should_store | boolean | no | no | **deprecated** (v1.1): objects are always stored. |',
    );
    copy.replace(
      'openapi/scheduler.yaml',
      '          in: query\n          required: false\n          description: Maximum number',
      '          in: query\n          required: false\n          deprecated: true\n          description: Maximum number',
    );
    copy.replaceRow(
      '#### Parameters `GET /v1/lease`',
      'task_count',
      '| task_count | query | integer | no | deprecated: the scheduler sizes leases itself. |',
    );
    const { breaking, passing } = copy.diff();
    expect(lines(breaking)).toEqual([]);
    const passed = passing.map((change) => `${change.checkId} ${change.message}`).join('\n');
    for (const expected of [
      /new-optional-request-property .*should_block_media/,
      /response-[\w-]*property-added .*redirect_count/,
      /endpoint-added POST \/v1\/operator\/pause-all/,
      /response-property-enum-value-added .*archived/,
      /request-property-deprecated .*should_store/,
      /request-parameter-deprecated .*task_count/,
      /contract-row-added Schema `RenderRequest` gained `should_block_media`/,
      /contract-row-added Enum `url_state` gained `archived`/,
      /contract-row-deprecated `should_store` of Schema `RenderRequest` is marked deprecated/,
      /contract-row-deprecated `task_count` of Parameters `GET \/v1\/lease` is marked deprecated/,
    ]) {
      expect(passed).toMatch(expected);
    }
  });
});
