import { outcomeKey, type CalibrationResult } from './calibration-run';

/** The issue's targets (CONTRACT.md's offline csr target; ssr misjudged as csr; render cost). */
export const CALIBRATION_TARGETS = {
  maxCsrMissRate: 0.05,
  /** "no ssr judged csr more than once in 30". */
  maxSsrJudgedCsrPer30: 1,
  maxRendersPerDecidedDomain: 4,
} as const;

export interface CalibrationFigures {
  readonly domainCount: number;
  readonly correctCount: number;
  readonly csrCount: number;
  readonly csrMissCount: number;
  readonly csrMissRate: number;
  readonly ssrCount: number;
  readonly ssrJudgedCsrCount: number;
  readonly decidedCount: number;
  readonly rendersPerDecidedDomain: number;
  readonly rendersPerDomain: number;
  readonly plainFetchesPerDomain: number;
  readonly errorCount: number;
}

function keyOf(result: CalibrationResult): string {
  return result.outcome === null ? 'error' : outcomeKey(result.outcome);
}

export function computeFigures(results: readonly CalibrationResult[]): CalibrationFigures {
  const labelled = results.filter((result) => result.testCase.expected !== null);
  const csr = labelled.filter((result) => result.testCase.expected === 'csr');
  const ssr = labelled.filter((result) => result.testCase.expected === 'ssr');
  const outcomes = labelled.flatMap((result) => (result.outcome === null ? [] : [result.outcome]));
  const decided = outcomes.filter((outcome) => outcome.verdict !== 'unknown');
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    domainCount: labelled.length,
    correctCount: labelled.filter((result) => keyOf(result) === result.testCase.expected).length,
    csrCount: csr.length,
    csrMissCount: csr.filter((result) => keyOf(result) !== 'csr').length,
    csrMissRate:
      csr.length === 0 ? 0 : csr.filter((result) => keyOf(result) !== 'csr').length / csr.length,
    ssrCount: ssr.length,
    ssrJudgedCsrCount: ssr.filter((result) => keyOf(result) === 'csr').length,
    decidedCount: decided.length,
    rendersPerDecidedDomain:
      decided.length === 0
        ? 0
        : sum(decided.map((outcome) => outcome.renderCount)) / decided.length,
    rendersPerDomain:
      outcomes.length === 0
        ? 0
        : sum(outcomes.map((outcome) => outcome.renderCount)) / outcomes.length,
    plainFetchesPerDomain:
      outcomes.length === 0
        ? 0
        : sum(outcomes.map((outcome) => outcome.plainFetchCount)) / outcomes.length,
    errorCount: labelled.filter((result) => result.outcome === null).length,
  };
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_cell, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]),
        )
        .join('  '),
    )
    .join('\n');
}

/** Labelled class × outcome (verdict, or unknown:<reason>), counts per cell. */
export function formatConfusionMatrix(results: readonly CalibrationResult[]): string {
  const labelled = results.filter((result) => result.testCase.expected !== null);
  const expectedKeys = [
    ...new Set(labelled.map((result) => result.testCase.expected as string)),
  ].sort();
  const outcomeKeys = [...new Set([...expectedKeys, ...labelled.map(keyOf)])].sort();
  const short = (key: string) => key.replace('unknown:', 'u:');
  const rows: string[][] = [['labelled \\ judged', ...outcomeKeys.map(short)]];
  for (const expected of expectedKeys) {
    const row = labelled.filter((result) => result.testCase.expected === expected);
    rows.push([
      short(expected),
      ...outcomeKeys.map((key) => {
        const count = row.filter((result) => keyOf(result) === key).length;
        return count === 0 ? '.' : String(count);
      }),
    ]);
  }
  return table(rows);
}

function quantiles(values: number[]): string {
  if (values.length === 0) return '—';
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
  return `min ${sorted[0].toFixed(2)}  median ${at(0.5).toFixed(2)}  max ${sorted[sorted.length - 1].toFixed(2)}  (n=${values.length})`;
}

/**
 * Per labelled class, the measures of its pages judged csr, partial or ssr (thin and blocked
 * pages have none worth showing): where the thresholds have room.
 */
export function formatMargins(results: readonly CalibrationResult[]): string {
  const lines: string[] = [];
  const classes = ['csr', 'partial', 'ssr'];
  for (const expected of classes) {
    const pages = results
      .filter((result) => result.testCase.expected === expected)
      .flatMap((result) => result.outcome?.pageList ?? [])
      .filter(
        (page) => page.renderOnlyShare !== null && ['csr', 'partial', 'ssr'].includes(page.result),
      );
    lines.push(
      `  ${expected.padEnd(8)} render-only share: ${quantiles(pages.map((page) => page.renderOnlyShare as number))}`,
    );
    lines.push(
      `  ${''.padEnd(8)} server share:      ${quantiles(pages.map((page) => page.serverShare as number))}`,
    );
  }
  return lines.join('\n');
}

export function formatResultLine(result: CalibrationResult): string {
  const judged = keyOf(result);
  const mark =
    result.testCase.expected === null ? ' ' : judged === result.testCase.expected ? '✓' : '✗';
  if (result.outcome === null)
    return `${mark} ${result.testCase.name.padEnd(26)} error: ${result.error}`;
  const outcome = result.outcome;
  return (
    `${mark} ${result.testCase.name.padEnd(26)} ${judged.padEnd(30)}` +
    `${result.testCase.expected !== null && judged !== result.testCase.expected ? ` (labelled ${result.testCase.expected})` : ''}` +
    ` renders ${outcome.renderCount} plain ${outcome.plainFetchCount} ${(result.elapsedMs / 1000).toFixed(1)} s` +
    ` wait_selector ${outcome.waitSelector ?? '—'} interval ${outcome.minIntervalMs} ms conf ${outcome.confidenceScore}`
  );
}

export interface TargetVerdict {
  readonly name: string;
  readonly isPassed: boolean;
  readonly detail: string;
}

export function judgeTargets(figures: CalibrationFigures): TargetVerdict[] {
  return [
    {
      name: 'csr miss rate < 5 %',
      isPassed: figures.csrMissRate < CALIBRATION_TARGETS.maxCsrMissRate,
      detail: `${(figures.csrMissRate * 100).toFixed(1)} % (${figures.csrMissCount} of ${figures.csrCount})`,
    },
    {
      name: 'ssr judged csr at most once in 30',
      isPassed:
        figures.ssrJudgedCsrCount / Math.max(1, figures.ssrCount) <=
        CALIBRATION_TARGETS.maxSsrJudgedCsrPer30 / 30,
      detail: `${figures.ssrJudgedCsrCount} of ${figures.ssrCount}`,
    },
    {
      name: '≤ 4 renders per decided domain (average)',
      isPassed: figures.rendersPerDecidedDomain <= CALIBRATION_TARGETS.maxRendersPerDecidedDomain,
      detail: `${figures.rendersPerDecidedDomain.toFixed(2)} over ${figures.decidedCount} decided domains`,
    },
  ];
}
