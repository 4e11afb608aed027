import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runRepositoryScript } from './run-script';

const repositoryRoot = join(__dirname, '..', '..');

function scaffold(root: string): { createdPaths: string[]; unwiredNotes: string[] } {
  const result = runRepositoryScript('scripts/codegen/scaffold-handlers.ts', ['--root', root]);
  expect(result.status).toBe(0);
  const lines = result.stdout.split('\n');
  return {
    createdPaths: lines.flatMap((line) => line.match(/^scaffold: created (.+)$/)?.slice(1) ?? []),
    unwiredNotes: lines.flatMap(
      (line) => line.match(/^scaffold: not wired yet — (.+)$/)?.slice(1) ?? [],
    ),
  };
}

describe('npm run scaffold', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'scaffold-'));
    for (const service of ['downloader', 'scheduler', 'sampler']) {
      cpSync(
        join(repositoryRoot, 'generated', service, 'openapi.json'),
        join(root, 'generated', service, 'openapi.json'),
      );
    }
    // The formatter looks for the repository's prettier settings next to the files.
    cpSync(join(repositoryRoot, '.prettierrc.json'), join(root, '.prettierrc.json'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates a 501 stub per operation, the context and the wiring', () => {
    const { createdPaths } = scaffold(root);
    expect(createdPaths).toContain('services/scheduler/handlers/lease-tasks.ts');
    expect(createdPaths).toContain('services/scheduler/handlers/index.ts');
    expect(createdPaths).toContain('services/sampler/context.ts');
    const stub = readFileSync(join(root, 'services/scheduler/handlers/lease-tasks.ts'), 'utf8');
    expect(stub).toContain("throw notImplemented('leaseTasks')");
    expect(stub).toContain("SchedulerHandlers['leaseTasks']");
    const index = readFileSync(join(root, 'services/scheduler/handlers/index.ts'), 'utf8');
    expect(index).toContain('leaseTasks: createLeaseTasksHandler(context)');
  });

  it('never overwrites an existing handler and names operations index.ts does not wire', () => {
    scaffold(root);
    const handlerPath = join(root, 'services/scheduler/handlers/lease-tasks.ts');
    writeFileSync(handlerPath, '// filled by the scheduler issue\n');
    const indexPath = join(root, 'services/scheduler/handlers/index.ts');
    writeFileSync(
      indexPath,
      readFileSync(indexPath, 'utf8').replace(
        '    submitSeeds: createSubmitSeedsHandler(context),\n',
        '',
      ),
    );
    rmSync(join(root, 'services/scheduler/handlers/report-lease.ts'));

    const { createdPaths, unwiredNotes } = scaffold(root);
    expect(createdPaths).toEqual(['services/scheduler/handlers/report-lease.ts']);
    expect(readFileSync(handlerPath, 'utf8')).toBe('// filled by the scheduler issue\n');
    expect(unwiredNotes).toEqual([
      'services/scheduler/handlers/index.ts: add submitSeeds: createSubmitSeedsHandler(context)',
    ]);
    expect(existsSync(join(root, 'services/scheduler/handlers/report-lease.ts'))).toBe(true);
  });
});
