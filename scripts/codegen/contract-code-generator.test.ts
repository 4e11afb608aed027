import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { GeneratedFiles } from './contract-code-generator';
import { diffGeneratedFiles, writeGeneratedFiles } from './generated-files-writer';
import { listFiles } from './list-files';
import { runRepositoryScript } from './run-script';

/** Runs `npm run generate --output-root <dir>` and reads back what it wrote. */
function generateInto(outputRoot: string): GeneratedFiles {
  const result = runRepositoryScript('scripts/codegen/generate.ts', ['--output-root', outputRoot]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return new Map(
    listFiles(join(outputRoot, 'generated')).map((path) => [
      relative(outputRoot, path),
      readFileSync(path, 'utf8'),
    ]),
  );
}

describe('npm run generate', () => {
  let workRoot: string;
  let first: GeneratedFiles;

  beforeAll(() => {
    workRoot = mkdtempSync(join(tmpdir(), 'generate-test-'));
    first = generateInto(join(workRoot, 'first'));
  }, 120_000);
  afterAll(() => rmSync(workRoot, { recursive: true, force: true }));

  it('produces the same bytes on a second run', () => {
    const second = generateInto(join(workRoot, 'second'));
    expect([...second.keys()].sort()).toEqual([...first.keys()].sort());
    for (const [path, content] of first) expect(second.get(path)).toBe(content);
  }, 120_000);

  it('emits per service a client, a router, its operations, a handler interface, types and the bundled document', () => {
    const files = ['client.ts', 'router.ts', 'operation-definitions.ts', 'handlers.ts', 'types.ts'];
    for (const service of ['downloader', 'scheduler', 'sampler']) {
      for (const file of [...files, 'openapi.json']) {
        expect(first.has(`generated/${service}/${file}`)).toBe(true);
      }
    }
    const definitions = first.get('generated/scheduler/operation-definitions.ts') as string;
    // Templates use wire names ({{baseName}}), never the generator's camelCased ones.
    expect(definitions).toContain(
      "queryParameterNames: ['worker_id', 'task_count', 'lease_ttl_seconds', 'wait_ms']",
    );
    expect(definitions).not.toMatch(/workerId|taskCount|leaseTtlSeconds|waitMs/);
    // The operations without the router: a peer's contract or the HTTP surface loads no router.
    expect(definitions).not.toContain('contract-router');
    expect(first.get('generated/scheduler/router.ts')).toContain(
      "import { schedulerOperationDefinitions } from './operation-definitions';",
    );
    // The shared components on their own, for what every service answers with (error codes).
    expect(first.get('generated/components/types.ts')).toContain("| 'lease_not_found'");
    expect(first.get('generated/scheduler/client.ts')).toContain("retryPolicy: 'until_success'");
  });

  it('emits the Go client module, one package per service, with wire names as json tags', () => {
    expect(first.get('generated/go/go.mod')).toContain('module render-crawler/generated/go');
    for (const service of ['downloader', 'scheduler', 'sampler']) {
      for (const file of ['client.go', 'configuration.go', 'contract_examples_test.go']) {
        expect(first.has(`generated/go/${service}/${file}`)).toBe(true);
      }
    }
    const leaseTask = first.get('generated/go/scheduler/model_lease_task.go') as string;
    expect(leaseTask).toMatch(/MinIntervalMs +int64 +`json:"min_interval_ms"`/);
    // Required and nullable: a NullableX without omitempty, always encoded (null included).
    expect(leaseTask).toMatch(/Etag +NullableString +`json:"etag"`/);
    expect(leaseTask).toContain('toSerialize["etag"] = o.Etag.Get()');
    const result = first.get('generated/go/scheduler/model_report_result.go') as string;
    expect(result).toContain('toSerialize["link_list"] = o.LinkList\n');
    // Enums keep a value this client does not know (value sets grow by adding values).
    const failReason = first.get('generated/go/scheduler/model_fail_reason.go') as string;
    expect(failReason).toMatch(/FAILREASON_NAVIGATION_TIMEOUT +FailReason = "navigation_timeout"/);
    expect(failReason).not.toContain('is not a valid FailReason');
  });

  it('writes only changed files and removes stale ones', () => {
    const root = join(workRoot, 'writer');
    const initial = writeGeneratedFiles(root, first);
    expect(initial.writtenPaths).toHaveLength(first.size);
    const clientPath = join(root, 'generated/scheduler/client.ts');
    const before = statSync(clientPath).mtimeMs;
    mkdirSync(join(root, 'generated/ghost'), { recursive: true });
    writeFileSync(join(root, 'generated/ghost/removed-operation.ts'), '// stale\n');
    writeFileSync(join(root, 'generated/sampler/router.ts'), '// hand edit\n');
    expect(diffGeneratedFiles(root, first)).toEqual([
      'differs  generated/sampler/router.ts',
      'stale    generated/ghost/removed-operation.ts',
    ]);

    const again = writeGeneratedFiles(root, first);
    expect(again.writtenPaths).toEqual(['generated/sampler/router.ts']);
    expect(again.removedPaths).toEqual(['generated/ghost/removed-operation.ts']);
    expect(statSync(clientPath).mtimeMs).toBe(before);
    expect(diffGeneratedFiles(root, first)).toEqual([]);
  });

  it('matches the committed generated/ (what npm run generate:check enforces)', () => {
    expect(diffGeneratedFiles(join(__dirname, '..', '..'), first)).toEqual([]);
  });
});
