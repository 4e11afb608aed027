import type { Finding } from './finding';
import type { RepositoryFiles } from './repository-files';

/*
 * `// contract-gate-ignore-next-line: <reason>` silences the gate on the next line of a services/
 * file — for tests that deliberately send or store a wrong name. The reason is required: without
 * one the comment does not apply, and the finding says so, so that every exception in the code base
 * explains itself.
 */

const DIRECTIVE = /\/\/\s*contract-gate-ignore-next-line\b(?::(.*))?/;

/** Drops findings under a directive with a reason; annotates those under one without. */
export function applyIgnoreDirectives(findings: Finding[], files: RepositoryFiles): Finding[] {
  const linesByFile = new Map<string, string[]>();
  const linesOf = (file: string): string[] => {
    let lines = linesByFile.get(file);
    if (lines === undefined) {
      lines = (files.read(file) ?? '').split(/\r?\n/);
      linesByFile.set(file, lines);
    }
    return lines;
  };
  return findings.flatMap((item) => {
    if (!item.file.startsWith('services/') || item.line < 2) {
      return [item];
    }
    const directive = DIRECTIVE.exec(linesOf(item.file)[item.line - 2]);
    if (directive === null) {
      return [item];
    }
    if ((directive[1] ?? '').trim() !== '') {
      return [];
    }
    return [
      {
        ...item,
        message:
          `${item.message} (the contract-gate-ignore-next-line comment on line ${item.line - 1} ` +
          'gives no reason, so it does not apply: write `// contract-gate-ignore-next-line: <why>`)',
      },
    ];
  });
}
