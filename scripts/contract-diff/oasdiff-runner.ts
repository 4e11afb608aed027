import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { ContractChange } from './breaking-change';
import { severityLevelsFile } from './oasdiff-severity-levels';

/*
 * The OpenAPI half of the add-only gate: oasdiff's own rules (`oasdiff changelog`, every level, as
 * JSON) on each service document of the frozen contract against the current one, with the levels
 * of oasdiff-severity-levels.ts. A warning or an error is breaking; info (additions, deprecations)
 * passes. Paths are handed to oasdiff relative to the repository root, so the locations it reports
 * are the repository's own (`openapi/scheduler.yaml:53:13`).
 */

/** Where `make setup` installs it (scripts/setup/ensure-oasdiff.sh, which pins the version). */
const INSTALLED_BINARY = join('.tools', 'oasdiff', 'bin', 'oasdiff');

/** oasdiff is not installed, or failed on a document (exit code 2 of the commands). */
export class OasdiffError extends Error {}

/** `OASDIFF` names another binary; otherwise the one `make setup` installed under .tools/. */
export function locateOasdiff(repositoryRoot: string): string {
  const binary = process.env.OASDIFF ?? join(repositoryRoot, INSTALLED_BINARY);
  if (!existsSync(binary)) {
    throw new OasdiffError(
      `oasdiff is missing at ${binary}; run \`make setup\` ` +
        '(or `bash scripts/setup/ensure-oasdiff.sh`), which builds it with `go install`',
    );
  }
  return binary;
}

interface OasdiffEntry {
  id: string;
  text: string;
  /** 3 error, 2 warning, 1 info. */
  level: number;
  operation?: string;
  path?: string;
  baseSource?: { file: string; line: number; column: number };
  revisionSource?: { file: string; line: number; column: number };
}

export interface OasdiffInput {
  binary: string;
  /** Where relative paths start; oasdiff runs there. */
  root: string;
  /** Repository-relative directories holding the service documents. */
  frozenDirectory: string;
  currentDirectory: string;
  /** File names of the documents to compare (those with `paths`), present in the frozen copy. */
  documents: string[];
}

export function oasdiffChanges(input: OasdiffInput): ContractChange[] {
  const workDirectory = mkdtempSync(join(tmpdir(), 'contract-diff-'));
  try {
    const levels = join(workDirectory, 'severity-levels.txt');
    writeFileSync(levels, severityLevelsFile());
    return input.documents.flatMap((document) => {
      const frozen = `${input.frozenDirectory}/${document}`;
      const current = `${input.currentDirectory}/${document}`;
      if (!existsSync(join(input.root, current))) {
        return [documentDeleted(frozen, current)];
      }
      return runChangelog(input, levels, frozen, current).map((entry) => asChange(entry, current));
    });
  } finally {
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

/** Whether a YAML document describes endpoints (components.yaml does not: it is reached by $ref). */
export function hasPaths(absolutePath: string): boolean {
  const document = parse(readFileSync(absolutePath, 'utf8')) as { paths?: object } | null;
  return Object.keys(document?.paths ?? {}).length > 0;
}

function runChangelog(
  input: OasdiffInput,
  levels: string,
  frozen: string,
  current: string,
): OasdiffEntry[] {
  const result = spawnSync(
    input.binary,
    ['changelog', frozen, current, '--format', 'json', '--severity-levels', levels],
    // The rules are the flags above: no OASDIFF_CONFIG from the caller's environment applies (the
    // repository holds no `.oasdiff.*` file for oasdiff to find on its own).
    { cwd: input.root, encoding: 'utf8', timeout: 120_000, env: withoutOasdiffConfig(process.env) },
  );
  if (result.error !== undefined || result.status !== 0) {
    throw new OasdiffError(
      `oasdiff changelog ${frozen} ${current} failed ` +
        `(${result.error?.message ?? `exit ${result.status}`}): ${result.stderr.trim()}`,
    );
  }
  const text = result.stdout.trim();
  return text === '' || text === 'null' ? [] : (JSON.parse(text) as OasdiffEntry[]);
}

function withoutOasdiffConfig(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { OASDIFF_CONFIG: _ignored, ...rest } = environment;
  return rest;
}

function asChange(entry: OasdiffEntry, currentFile: string): ContractChange {
  const source = entry.revisionSource ?? entry.baseSource;
  const operation =
    entry.operation !== undefined && entry.path !== undefined
      ? `${entry.operation} ${entry.path}: `
      : '';
  return {
    file: source?.file ?? currentFile,
    line: source?.line ?? 1,
    column: source?.column ?? 1,
    source: 'oasdiff',
    checkId: entry.id,
    isBreaking: entry.level >= 2,
    message:
      operation +
      entry.text +
      (entry.revisionSource === undefined && entry.baseSource !== undefined
        ? ' (at its place in the frozen document)'
        : ''),
    suggestion: null,
  };
}

function documentDeleted(frozen: string, current: string): ContractChange {
  return {
    file: frozen,
    line: 1,
    column: 1,
    source: 'oasdiff',
    checkId: 'document-deleted',
    isBreaking: true,
    message: `${current} was deleted: every endpoint of ${frozen} is gone`,
    suggestion: null,
  };
}
