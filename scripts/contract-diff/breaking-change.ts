import type { SourceLocation } from '../gate/finding';

/** Who found a change: oasdiff on the OpenAPI documents, or the CONTRACT.md table rules. */
export type ChangeSource = 'oasdiff' | 'contract-tables';

/** One change against the frozen contract; `isBreaking` false for additions and deprecations. */
export interface ContractChange extends SourceLocation {
  source: ChangeSource;
  /** oasdiff's check id (`request-property-removed`) or ours (`contract-row-deleted`). */
  checkId: string;
  isBreaking: boolean;
  message: string;
  /** What would fix it (the name to keep), as the naming gate's "did you mean". */
  suggestion: string | null;
}

/** `path:line:column: error [check-id] message (did you mean `x`?)` — the naming gate's format. */
export function formatChange(change: ContractChange): string {
  const level = change.isBreaking ? 'error' : 'info';
  const suggestion = change.suggestion === null ? '' : ` (did you mean \`${change.suggestion}\`?)`;
  return `${change.file}:${change.line}:${change.column}: ${level} [${change.checkId}] ${change.message}${suggestion}`;
}
