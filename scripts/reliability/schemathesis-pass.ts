import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';

/** The project's own schemathesis (scripts/setup/ensure-schemathesis.sh installs it). */
export const SCHEMATHESIS_PATH = join(
  __dirname,
  '..',
  '..',
  '.tools',
  'schemathesis',
  'bin',
  'schemathesis',
);

export interface SchemathesisPass {
  /** Shown in the summary, e.g. `downloader with token`. */
  readonly name: string;
  /** The schema: the service's `/openapi.json`, or a variant written to a file. */
  readonly location: string;
  /** Base URL of the API (needed when `location` is a file). */
  readonly baseUrl?: string;
  /** Sent as `Authorization: Bearer …`; none for the anonymous passes. */
  readonly token?: string;
  readonly maxTimeSeconds: number;
  /** `all` (schema-valid and schema-invalid requests) or `positive` only. */
  readonly mode: 'all' | 'positive';
  readonly phases: readonly string[];
  /** Only operations whose id matches (e.g. the consumer-token pass of the sampler). */
  readonly includeOperationIds?: readonly string[];
}

export interface SchemathesisRun {
  readonly pass: SchemathesisPass;
  readonly ndjsonPath: string;
  readonly logPath: string;
  readonly exitCode: number | null;
}

/**
 * Runs one schemathesis pass: every check, a fixed seed (a failure can be replayed), no example
 * database on disk, one NDJSON event file for the summary (fuzz-findings.ts) and the fuzzer's own
 * report in a log file next to it.
 */
export function runSchemathesisPass(
  pass: SchemathesisPass,
  options: { outputDirectory: string; seed: number; workers: number },
): Promise<SchemathesisRun> {
  const slug = pass.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  const ndjsonPath = join(options.outputDirectory, `${slug}.ndjson`);
  const logPath = join(options.outputDirectory, `${slug}.log`);
  const argumentList = [
    'run',
    pass.location,
    ...(pass.baseUrl === undefined ? [] : ['--url', pass.baseUrl]),
    ...(pass.token === undefined ? [] : ['--header', `Authorization: Bearer ${pass.token}`]),
    '--checks',
    'all',
    // `all` includes a response-time check; a render may take its timeout_ms (up to 120 s), and
    // speed is the benchmarks' business, not the fuzzer's.
    '--max-response-time',
    '130',
    '--mode',
    pass.mode,
    '--phases',
    pass.phases.join(','),
    '--max-time',
    String(pass.maxTimeSeconds),
    '--workers',
    String(options.workers),
    '--seed',
    String(options.seed),
    '--generation-database',
    'none',
    '--request-timeout',
    '130',
    '--report',
    'ndjson',
    '--report-ndjson-path',
    ndjsonPath,
    '--no-color',
    ...(pass.includeOperationIds ?? []).flatMap((id) => ['--include-operation-id', id]),
  ];
  const log = createWriteStream(logPath);
  return new Promise((resolve, reject) => {
    // Run in the output directory: schemathesis keeps a cache (.schemathesis/) in its working
    // directory, which must not land in the repository.
    const child = spawn(SCHEMATHESIS_PATH, argumentList, {
      cwd: options.outputDirectory,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once('error', reject);
    child.once('close', (exitCode) => {
      log.end();
      resolve({ pass, ndjsonPath, logPath, exitCode });
    });
  });
}
