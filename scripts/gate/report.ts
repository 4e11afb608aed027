import type { Finding } from './finding';
import type { GateResult } from './run-gate';

/** `path:line:column: error [rule-id] message (did you mean `x`?)` — the compiler-style line. */
export function formatFinding(item: Finding): string {
  const suggestion = item.suggestion === null ? '' : ` (did you mean \`${item.suggestion}\`?)`;
  return `${item.file}:${item.line}:${item.column}: error [${item.rule}] ${item.message}${suggestion}`;
}

export function formatSummary(result: GateResult): string {
  const { summary } = result;
  const counts = Object.entries(summary.ruleCounts)
    .map(([rule, count]) => `${rule} ${count}`)
    .join(', ');
  const verdict =
    summary.findingCount === 0
      ? 'no naming drift'
      : `${summary.findingCount} finding${summary.findingCount === 1 ? '' : 's'}`;
  return (
    `check-json-tags: ${verdict} (${counts}); ${summary.filesScanned} files scanned ` +
    `in ${summary.elapsedMs} ms`
  );
}

export function formatText(result: GateResult): string {
  return [...result.findings.map(formatFinding), formatSummary(result)].join('\n');
}

export function formatJson(result: GateResult): string {
  return JSON.stringify({ findings: result.findings, summary: result.summary }, null, 2);
}
