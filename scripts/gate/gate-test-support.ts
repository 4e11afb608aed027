import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Finding, RuleId } from './finding';
import { runGate } from './run-gate';

/*
 * Shared by the gate's tests: running one rule on a fixture tree, describing findings compactly so
 * a test can assert the whole list, and copying the real repository to a temporary directory so
 * scenario tests can edit files without touching the real ones.
 */

export const FIXTURES_DIRECTORY = join(__dirname, 'fixtures');
export const REPOSITORY_ROOT = join(__dirname, '..', '..');

export function fixtureFindings(rule: RuleId, variant: 'pass' | 'fail'): Finding[] {
  return runGate({ root: join(FIXTURES_DIRECTORY, rule, variant), rules: [rule] }).findings;
}

/** `file:line:column rule → suggestion`, one string per finding. */
export function describeFindings(findings: Finding[]): string[] {
  return findings.map(
    (item) =>
      `${item.file}:${item.line}:${item.column} ${item.rule}` +
      (item.suggestion === null ? '' : ` → ${item.suggestion}`),
  );
}

/** What the gate reads from a repository; the rest (node_modules, .git, …) is not copied. */
const GATE_INPUTS = [
  'CONTRACT.md',
  'CONVENTION.md',
  'openapi',
  'generated',
  'services',
  'templates',
];

export class RepositoryCopy {
  readonly root: string;

  /** Copies `entries` (default: what the gate reads) of `source` to a temporary directory. */
  constructor(source = REPOSITORY_ROOT, entries: readonly string[] = GATE_INPUTS) {
    this.root = mkdtempSync(join(tmpdir(), 'gate-repo-'));
    for (const entry of entries) {
      cpSync(join(source, entry), join(this.root, entry), {
        recursive: true,
        errorOnExist: false,
        force: true,
      });
    }
  }

  read(path: string): string {
    return readFileSync(join(this.root, path), 'utf8');
  }

  write(path: string, text: string): void {
    writeFileSync(join(this.root, path), text);
  }

  /**
   * Replaces the first occurrence of `search` after `after` (if given); returns the 1-based line
   * and column where `search` started.
   */
  replace(
    path: string,
    search: string,
    replacement: string,
    after = '',
  ): { line: number; column: number } {
    const text = this.read(path);
    const index = text.indexOf(search, after === '' ? 0 : text.indexOf(after));
    if (index < 0 || (after !== '' && !text.includes(after))) {
      throw new Error(`${path} does not contain ${search}`);
    }
    this.write(path, text.slice(0, index) + replacement + text.slice(index + search.length));
    const before = text.slice(0, index).split('\n');
    return { line: before.length, column: before[before.length - 1].length + 1 };
  }

  findings(rules?: RuleId[]): Finding[] {
    return runGate({ root: this.root, rules }).findings;
  }

  /**
   * Runs the gate before and after `change` and returns the findings the change added. Findings are
   * matched without positions (an edit shifts the lines below it), so only really new ones remain.
   */
  findingsAddedBy(change: () => void): Finding[] {
    const withoutPositions = (item: Finding) =>
      `${item.file}|${item.rule}|${item.message.replace(/:\d+:\d+/g, '')}`;
    const remaining = new Map<string, number>();
    for (const item of this.findings()) {
      const key = withoutPositions(item);
      remaining.set(key, (remaining.get(key) ?? 0) + 1);
    }
    change();
    return this.findings().filter((item) => {
      const count = remaining.get(withoutPositions(item)) ?? 0;
      remaining.set(withoutPositions(item), count - 1);
      return count <= 0;
    });
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
