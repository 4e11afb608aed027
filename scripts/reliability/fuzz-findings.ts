import { readFileSync } from 'node:fs';
import { tally } from './tally';

/** One thing worth showing: where, what was answered, and why it counts. */
export interface FuzzExample {
  readonly operation: string;
  readonly status: number;
  readonly detail: string;
}

/** What one schemathesis pass found, counted against the fuzz targets. */
export interface FuzzFindings {
  requestCount: number;
  /** Every answer by status. */
  readonly statusCounts: Map<number, number>;
  /** 5xx that are faults: all but a 502 render_failed (a failed fetch) and a 501 not_implemented. */
  readonly serverErrors: FuzzExample[];
  /** 502 render_failed: the contract's answer to a fetch that failed (here mostly DNS). */
  documentedRenderFailureCount: number;
  /** 501 not_implemented, per operation (a service not built yet). */
  readonly notImplementedOperations: Map<string, number>;
  /** Answers that break the contract: status, content type, headers or body schema. */
  readonly contractViolations: FuzzExample[];
  /** Schema-valid requests refused for a reason the schema does not (and cannot) state. */
  readonly validRefused: FuzzExample[];
  /**
   * Schema-valid requests refused for a reason the contract documents and no schema can state:
   * the operator's destination policy, CSS selector syntax, a host beyond 253 characters.
   */
  readonly documentedRefusals: Map<string, number>;
  /** Schema-invalid requests the service accepted. */
  readonly invalidAccepted: FuzzExample[];
  /** Every other check that failed (unsupported method, ignored auth, use after free, …). */
  readonly otherFailures: FuzzExample[];
  /** For a pass without a token: requests answered with anything but a refusal. */
  readonly answeredWithoutToken: FuzzExample[];
}

export function emptyFindings(): FuzzFindings {
  return {
    requestCount: 0,
    statusCounts: new Map(),
    serverErrors: [],
    documentedRenderFailureCount: 0,
    notImplementedOperations: new Map(),
    contractViolations: [],
    validRefused: [],
    documentedRefusals: new Map(),
    invalidAccepted: [],
    otherFailures: [],
    answeredWithoutToken: [],
  };
}

const CONTRACT_CHECKS = new Set([
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
]);

interface RecordedCase {
  value: {
    method: string;
    path: string;
    body?: unknown;
    meta?: { generation?: { mode?: string } };
  };
}
interface Interaction {
  request: { method: string; uri: string; body?: { $base64?: string } };
  response?: { status_code: number; content?: { $base64?: string } } | null;
}
interface CheckResult {
  name: string;
  status: string;
  failure_info?: { failure?: { title?: string; message?: string } };
}
interface ScenarioFinished {
  recorder: {
    label: string;
    cases: Record<string, RecordedCase>;
    checks: Record<string, CheckResult[]>;
    interactions: Record<string, Interaction>;
  };
}

function decode(content: { $base64?: string } | undefined): string {
  return content?.$base64 === undefined ? '' : Buffer.from(content.$base64, 'base64').toString();
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The contract's documented refusals of schema-valid requests (see FuzzFindings). */
function documentedRefusalOf(
  answer: Record<string, unknown>,
  requestBody: Record<string, unknown>,
): string | undefined {
  const message = String(answer.message ?? '');
  if (answer.error_code === 'destination_not_allowed') return 'destination not allowed';
  if (message.startsWith('wait_selector:')) return 'wait_selector not valid CSS';
  // CONTRACT.md §四: a hint's URLs must be crawlable http(s) URLs on its domain, the endpoint on
  // the page's origin, and the matched count at most the text count — relations between fields.
  if (/^hint_list\[\d+\]: /.test(message)) return 'API endpoint hint not coherent';
  // CONTRACT.md DomainRule: an api_endpoint's pattern must compile and its template name only the
  // pattern's groups — a regular expression's meaning, which no schema states.
  if (/^rule_list\[\d+\]: api_endpoint: /.test(message)) return 'api_endpoint mapping not coherent';
  const url = typeof requestBody.url === 'string' ? requestBody.url : '';
  const host = /^[a-z]+:\/\/([^/?#:]*)/i.exec(url)?.[1] ?? '';
  if (message.startsWith('url:') && host.replace(/\.$/, '').length > 253) {
    return 'host beyond 253 characters';
  }
  return undefined;
}

/** Reads a pass's NDJSON events into `findings` (passes add up into one summary). */
export function readFindings(
  ndjsonPath: string,
  findings: FuzzFindings,
  options: { isAnonymous: boolean },
): void {
  const lines = readFileSync(ndjsonPath, 'utf8').split('\n');
  for (const line of lines) {
    if (!line.startsWith('{"ScenarioFinished"')) continue;
    const { recorder } = (JSON.parse(line) as { ScenarioFinished: ScenarioFinished })
      .ScenarioFinished;
    for (const [caseId, interaction] of Object.entries(recorder.interactions ?? {})) {
      const response = interaction.response;
      if (response === undefined || response === null) continue;
      const recorded = recorder.cases?.[caseId]?.value;
      const operation = `${interaction.request.method} ${recorded?.path ?? new URL(interaction.request.uri).pathname}`;
      const status = response.status_code;
      const answerText = decode(response.content);
      const answer = parseObject(answerText);
      const example = (detail: string): FuzzExample => ({
        operation,
        status,
        detail: detail.slice(0, 300),
      });
      findings.requestCount += 1;
      tally(findings.statusCounts, status);
      if (status === 502 && answer.error_code === 'render_failed') {
        findings.documentedRenderFailureCount += 1;
      } else if (status === 501 && answer.error_code === 'not_implemented') {
        tally(findings.notImplementedOperations, operation);
      } else if (status >= 500) {
        findings.serverErrors.push(example(answerText));
      }
      if (options.isAnonymous && status < 400) {
        findings.answeredWithoutToken.push(example(answerText));
      }
      const requestBody = parseObject(decode(interaction.request.body));
      for (const check of recorder.checks?.[caseId] ?? []) {
        if (check.status !== 'failure') continue;
        const why = `${check.failure_info?.failure?.title ?? check.name}: ${answerText}`;
        if (check.name === 'not_a_server_error') continue; // counted by status above
        if (CONTRACT_CHECKS.has(check.name)) {
          findings.contractViolations.push(
            example(`${check.failure_info?.failure?.message ?? check.name} — ${answerText}`),
          );
        } else if (check.name === 'positive_data_acceptance') {
          const documented = documentedRefusalOf(answer, requestBody);
          if (documented === undefined) {
            findings.validRefused.push(example(`${why} — sent ${JSON.stringify(requestBody)}`));
          } else {
            tally(findings.documentedRefusals, documented);
          }
        } else if (check.name === 'negative_data_rejection') {
          findings.invalidAccepted.push(example(`${why} — sent ${JSON.stringify(requestBody)}`));
        } else {
          findings.otherFailures.push(example(`${check.name}: ${why}`));
        }
      }
    }
  }
}
