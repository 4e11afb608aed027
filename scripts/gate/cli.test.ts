import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, runCli } from './cli';
import { FIXTURES_DIRECTORY, REPOSITORY_ROOT } from './gate-test-support';

function run(...argv: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = runCli(argv, REPOSITORY_ROOT, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

const storageFail = join(FIXTURES_DIRECTORY, 'storage-key', 'fail');
const storagePass = join(FIXTURES_DIRECTORY, 'storage-key', 'pass');

describe('check-json-tags CLI', () => {
  test('prints compiler-style lines and a summary, exiting 1 on findings', () => {
    const result = run('--root', storageFail, '--rule', 'storage-key');
    expect(result.code).toBe(EXIT_FINDINGS);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toContain(
      'services/downloader/render.ts:11:24: error [storage-key] `sched:` is not a service prefix ' +
        '(scheduler, downloader, sampler) (did you mean `scheduler`?)',
    );
    expect(lines[lines.length - 1]).toMatch(
      /^check-json-tags: 14 findings \(storage-key 14\); 4 files scanned in \d+ ms$/,
    );
  });

  test('prints findings and summary as JSON with --format json', () => {
    const result = run('--root', storageFail, '--rule', 'storage-key', '--format', 'json');
    expect(result.code).toBe(EXIT_FINDINGS);
    const report = JSON.parse(result.stdout) as {
      findings: Array<Record<string, unknown>>;
      summary: Record<string, unknown>;
    };
    expect(report.findings[0]).toEqual({
      file: 'CONTRACT.md',
      line: 9,
      column: 3,
      rule: 'storage-key',
      message: "`crs:` is never a key prefix; the downloader's keys start with `downloader:`",
      suggestion: 'downloader:web_page_object:{object_id}',
    });
    expect(report.findings[1].suggestion).toBeNull();
    expect(report.summary).toMatchObject({
      findingCount: 14,
      ruleCounts: { 'storage-key': 14 },
      filesScanned: 4,
    });
  });

  test('exits 0 on a clean tree', () => {
    const result = run('--root', storagePass, '--rule', 'storage-key');
    expect(result.code).toBe(EXIT_CLEAN);
    expect(result.stdout).toMatch(/^check-json-tags: no naming drift \(storage-key 0\)/);
  });

  test('reports missing documents as findings, not crashes', () => {
    const empty = mkdtempSync(join(tmpdir(), 'gate-empty-'));
    try {
      const result = run('--root', empty);
      expect(result.code).toBe(EXIT_FINDINGS);
      expect(result.stdout.split('\n').slice(0, 3)).toEqual([
        'CONTRACT.md:1:1: error [contract-coverage] CONTRACT.md is missing; the gate reads the single source of truth for names from it',
        'CONVENTION.md:1:1: error [convention] CONVENTION.md is missing; the gate reads the naming rules and their lists from it',
        'openapi/:1:1: error [contract-coverage] openapi/ is missing; the gate reads the OpenAPI documents from it',
      ]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test('exits 2 on a usage or input error', () => {
    expect(run('--root', join(FIXTURES_DIRECTORY, 'no-such-tree')).code).toBe(EXIT_USAGE);
    expect(run('--root', join(FIXTURES_DIRECTORY, 'no-such-tree')).stderr).toContain(
      'is not a directory',
    );
    expect(run('--rule', 'no-such-rule').code).toBe(EXIT_USAGE);
    expect(run('--format', 'xml').code).toBe(EXIT_USAGE);
    expect(run('--no-such-flag').code).toBe(EXIT_USAGE);
  });

  test('the repository-root entry point sets the process exit code', () => {
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(REPOSITORY_ROOT, 'check-json-tags.ts'),
        '--root',
        storageFail,
        '--rule',
        'storage-key',
      ],
      { encoding: 'utf8', cwd: REPOSITORY_ROOT },
    );
    expect(child.status).toBe(EXIT_FINDINGS);
    expect(child.stdout).toContain('[storage-key]');
  });
});
