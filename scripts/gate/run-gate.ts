import { performance } from 'node:perf_hooks';
import { RULE_IDS, type Finding, type RuleId } from './finding';
import { GateContext } from './gate-context';
import { applyIgnoreDirectives } from './ignore-directives';
import { checkContractCoverage } from './rule-contract-coverage';
import { checkConvention } from './rule-convention';
import { checkGeneratedNames } from './rule-generated-names';
import { checkGoJsonTags } from './rule-go-json-tags';
import { checkServiceWireNames } from './rule-service-wire-names';
import { checkStorageKeys } from './rule-storage-key';

const RULES: Record<RuleId, (context: GateContext) => Finding[]> = {
  'contract-coverage': checkContractCoverage,
  'generated-names': checkGeneratedNames,
  'go-json-tags': checkGoJsonTags,
  'service-wire-names': checkServiceWireNames,
  convention: checkConvention,
  'storage-key': checkStorageKeys,
};

export interface GateOptions {
  /** The repository (or fixture tree) to check. */
  root: string;
  /** Only these rules (default: all). */
  rules?: readonly RuleId[];
}

export interface GateSummary {
  findingCount: number;
  /** Findings per rule, every selected rule listed (0 included). */
  ruleCounts: Partial<Record<RuleId, number>>;
  filesScanned: number;
  elapsedMs: number;
}

export interface GateResult {
  findings: Finding[];
  summary: GateSummary;
}

/**
 * Runs the gate in-process. Throws GateInputError when the root or a file cannot be read at all;
 * everything else (missing documents, invalid YAML, malformed tables) is a finding.
 */
export function runGate(options: GateOptions): GateResult {
  const started = performance.now();
  const rules = options.rules ?? RULE_IDS;
  const context = new GateContext(options.root);
  const raw = rules.flatMap((rule) => RULES[rule](context));
  const selected = [...raw, ...context.loadFindings.filter((item) => rules.includes(item.rule))];
  const findings = sortFindings(dedupe(applyIgnoreDirectives(selected, context.files)));
  const ruleCounts: Partial<Record<RuleId, number>> = {};
  for (const rule of RULE_IDS.filter((id) => rules.includes(id))) {
    ruleCounts[rule] = findings.filter((item) => item.rule === rule).length;
  }
  return {
    findings,
    summary: {
      findingCount: findings.length,
      ruleCounts,
      filesScanned: context.files.scannedCount,
      elapsedMs: Math.round(performance.now() - started),
    },
  };
}

/** A named enum or a shared node can be reached along several paths; report each place once. */
function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((item) => {
    const key = `${item.file}:${item.line}:${item.column}:${item.rule}:${item.message}`;
    if (seen.has(key)) {
      return false;
    }
    seen.add(key);
    return true;
  });
}

function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (left, right) =>
      left.file.localeCompare(right.file) ||
      left.line - right.line ||
      left.column - right.column ||
      left.rule.localeCompare(right.rule),
  );
}
