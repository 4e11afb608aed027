import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { GeneratedFiles } from './contract-code-generator';
import { listFiles } from './list-files';

export interface WriteOutcome {
  writtenPaths: string[];
  removedPaths: string[];
}

/**
 * Makes generated/ exactly `files`: writes only files whose bytes changed (so timestamps of
 * unchanged files stay put) and deletes files no longer produced — a removed operation or
 * service leaves no ghost behind.
 */
export function writeGeneratedFiles(repositoryRoot: string, files: GeneratedFiles): WriteOutcome {
  const writtenPaths: string[] = [];
  for (const [path, content] of files) {
    const target = join(repositoryRoot, path);
    if (existsSync(target) && readFileSync(target, 'utf8') === content) continue;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    writtenPaths.push(path);
  }
  const removedPaths: string[] = [];
  for (const path of listFiles(join(repositoryRoot, 'generated'))) {
    const relativePath = relative(repositoryRoot, path);
    if (!files.has(relativePath)) {
      rmSync(path);
      removedPaths.push(relativePath);
    }
  }
  return { writtenPaths, removedPaths };
}

/** Lists how generated/ differs from `files` without touching anything. */
export function diffGeneratedFiles(repositoryRoot: string, files: GeneratedFiles): string[] {
  const problems: string[] = [];
  for (const [path, content] of files) {
    const target = join(repositoryRoot, path);
    if (!existsSync(target)) problems.push(`missing  ${path}`);
    else if (readFileSync(target, 'utf8') !== content) problems.push(`differs  ${path}`);
  }
  for (const path of listFiles(join(repositoryRoot, 'generated'))) {
    const relativePath = relative(repositoryRoot, path);
    if (!files.has(relativePath)) problems.push(`stale    ${relativePath}`);
  }
  return problems;
}
