/** The rules of the naming-drift gate, in the order the summary lists them. */
export const RULE_IDS = [
  'contract-coverage',
  'generated-names',
  'go-json-tags',
  'service-wire-names',
  'convention',
  'storage-key',
] as const;

export type RuleId = (typeof RULE_IDS)[number];

/** A place in a file of the repository; `file` is relative to the root, with `/` separators. */
export interface SourceLocation {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units like editors and the TypeScript compiler. */
  column: number;
}

/** One drift the gate reports; `suggestion` is the name (or text) that would fix it. */
export interface Finding extends SourceLocation {
  rule: RuleId;
  message: string;
  suggestion: string | null;
}

export function finding(
  rule: RuleId,
  location: SourceLocation,
  message: string,
  suggestion?: string,
): Finding {
  return {
    file: location.file,
    line: location.line,
    column: location.column,
    rule,
    message,
    suggestion: suggestion ?? null,
  };
}

/** `file:line:column`, for messages that point at the other side of a mismatch. */
export function describeLocation(location: SourceLocation): string {
  return `${location.file}:${location.line}:${location.column}`;
}

/** Line 1, column 1 of a file: where whole-file problems (missing, unreadable) are reported. */
export function startOf(file: string): SourceLocation {
  return { file, line: 1, column: 1 };
}
