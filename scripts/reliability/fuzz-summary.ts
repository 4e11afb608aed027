import type { FuzzExample, FuzzFindings } from './fuzz-findings';

export interface HealthAtEnd {
  readonly service: string;
  readonly isRunning: boolean;
  readonly isReady: boolean;
}

export interface FuzzSummaryInput {
  readonly findingsByPass: ReadonlyMap<string, FuzzFindings>;
  readonly health: readonly HealthAtEnd[];
  /** The pass whose URLs are the demo site's (renders must really happen there). */
  readonly demoRenderPass: string;
  /** Requests the demo origin answered during the run. */
  readonly demoOriginRequestCount: number;
}

const COLUMNS = [
  ['requests', (f: FuzzFindings) => f.requestCount],
  ['5xx', (f: FuzzFindings) => f.serverErrors.length],
  ['502 fetch', (f: FuzzFindings) => f.documentedRenderFailureCount],
  ['501', (f: FuzzFindings) => sum(f.notImplementedOperations)],
  ['contract', (f: FuzzFindings) => f.contractViolations.length],
  ['valid refused', (f: FuzzFindings) => f.validRefused.length],
  ['documented', (f: FuzzFindings) => sum(f.documentedRefusals)],
  ['invalid accepted', (f: FuzzFindings) => f.invalidAccepted.length],
  ['other', (f: FuzzFindings) => f.otherFailures.length],
  ['no-token answered', (f: FuzzFindings) => f.answeredWithoutToken.length],
] as const;

function sum(counts: ReadonlyMap<string, number>): number {
  return [...counts.values()].reduce((total, count) => total + count, 0);
}

function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}

function merge(findings: Iterable<FuzzFindings>): {
  totals: number[];
  documented: Map<string, number>;
  notImplemented: Map<string, number>;
} {
  const totals = COLUMNS.map(() => 0);
  const documented = new Map<string, number>();
  const notImplemented = new Map<string, number>();
  for (const one of findings) {
    COLUMNS.forEach(([, read], index) => (totals[index] += read(one)));
    for (const [reason, count] of one.documentedRefusals) {
      documented.set(reason, (documented.get(reason) ?? 0) + count);
    }
    for (const [operation, count] of one.notImplementedOperations) {
      notImplemented.set(operation, (notImplemented.get(operation) ?? 0) + count);
    }
  }
  return { totals, documented, notImplemented };
}

function printExamples(title: string, examples: readonly FuzzExample[]): void {
  if (examples.length === 0) return;
  console.log(`\n${title} (${examples.length}; the first 5):`);
  for (const example of examples.slice(0, 5)) {
    console.log(`  ${example.operation} → ${example.status}: ${example.detail}`);
  }
}

/** Prints the per-pass table, the totals, and PASS/FAIL per target; true when all pass. */
export function printFuzzSummary(input: FuzzSummaryInput): boolean {
  const rows = [...input.findingsByPass.entries()].map(([name, findings]) => [
    name,
    ...COLUMNS.map(([, read]) => formatNumber(read(findings))),
  ]);
  const { totals, documented, notImplemented } = merge(input.findingsByPass.values());
  rows.push(['total', ...totals.map(formatNumber)]);
  const header = ['pass', ...COLUMNS.map(([name]) => name)];
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column].length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]),
      )
      .join('  ');
  console.log(`\n${line(header)}`);
  for (const row of rows) console.log(line(row));

  const all = [...input.findingsByPass.values()];
  const examples = (pick: (findings: FuzzFindings) => FuzzExample[]) => all.flatMap(pick);
  printExamples(
    '5xx',
    examples((findings) => findings.serverErrors),
  );
  printExamples(
    'contract violations',
    examples((findings) => findings.contractViolations),
  );
  printExamples(
    'valid requests refused',
    examples((findings) => findings.validRefused),
  );
  printExamples(
    'invalid requests accepted',
    examples((findings) => findings.invalidAccepted),
  );
  printExamples(
    'other check failures',
    examples((findings) => findings.otherFailures),
  );
  printExamples(
    'answered without a token',
    examples((findings) => findings.answeredWithoutToken),
  );

  const total = (name: string) => totals[COLUMNS.findIndex(([column]) => column === name)];
  const demo = input.findingsByPass.get(input.demoRenderPass);
  const renderedCount = demo?.statusCounts.get(200) ?? 0;
  const describe = (counts: Map<string, number>) =>
    [...counts.entries()].map(([reason, count]) => `${reason} ${formatNumber(count)}`).join(', ');
  const idlePasses = [...input.findingsByPass.entries()]
    .filter(([, findings]) => findings.requestCount === 0)
    .map(([name]) => name);
  const targets: Array<[boolean, string]> = [
    [
      idlePasses.length === 0,
      `every pass sent requests${idlePasses.length > 0 ? `: none from ${idlePasses.join(', ')}` : ''}`,
    ],
    [
      total('5xx') === 0,
      `0 × 5xx: ${formatNumber(total('5xx'))} (aside: 502 render_failed for a failed fetch ${formatNumber(
        total('502 fetch'),
      )}${
        notImplemented.size > 0
          ? `; 501 not_implemented ${formatNumber(total('501'))} on ${notImplemented.size} operations not built yet: ${[...notImplemented.keys()].join(', ')}`
          : ''
      })`,
    ],
    [total('contract') === 0, `0 response-schema violations: ${formatNumber(total('contract'))}`],
    [
      total('valid refused') === 0,
      `0 valid requests refused: ${formatNumber(total('valid refused'))}` +
        (documented.size > 0
          ? ` (refusals the contract documents and no schema can state: ${describe(documented)})`
          : ''),
    ],
    [
      total('invalid accepted') === 0,
      `0 invalid requests accepted: ${formatNumber(total('invalid accepted'))}`,
    ],
    [total('other') === 0, `0 other check failures: ${formatNumber(total('other'))}`],
    [
      total('no-token answered') === 0,
      `every request without a token refused: ${formatNumber(total('no-token answered'))} answered`,
    ],
    [
      input.health.every((health) => health.isRunning && health.isReady),
      `every service healthy at the end: ${input.health
        .map(
          (health) =>
            `${health.service} ${health.isRunning && health.isReady ? 'ready' : 'NOT ready'}`,
        )
        .join(', ')}`,
    ],
    [
      renderedCount > 0 && input.demoOriginRequestCount > 0,
      `renders really happen (demo-site pass): ${formatNumber(renderedCount)} answered 200, ${formatNumber(
        input.demoOriginRequestCount,
      )} requests reached the demo origin`,
    ],
  ];
  console.log('');
  for (const [isPassed, text] of targets) console.log(`${isPassed ? 'PASS' : 'FAIL'}  ${text}`);
  return targets.every(([isPassed]) => isPassed);
}
