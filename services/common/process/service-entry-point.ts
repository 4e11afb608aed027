import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceName } from '../storage/service-name';

export interface NodeEntryPoint {
  command: string;
  argumentList: string[];
}

/**
 * How to start a program given its path without extension: the compiled `.js` when this code
 * runs from dist/, otherwise the TypeScript source through tsx (tests and development).
 */
export function nodeEntryPoint(pathWithoutExtension: string): NodeEntryPoint {
  const compiled = compiledModuleOf(pathWithoutExtension);
  if (compiled !== undefined) return { command: process.execPath, argumentList: [compiled] };
  return {
    command: process.execPath,
    argumentList: ['--import', 'tsx', `${pathWithoutExtension}.ts`],
  };
}

/** The compiled `.js` of a module given without extension, when this code runs from dist/. */
export function compiledModuleOf(pathWithoutExtension: string): string | undefined {
  const compiled = `${pathWithoutExtension}.js`;
  return existsSync(compiled) ? compiled : undefined;
}

/**
 * How to start `services/<service>/main` — of this tree, or of another source tree (the previous
 * contract's build, which the compatibility test runs). `nodeFlags` come after the service's own
 * (SERVICE_NODE_FLAGS): Node takes the last of a flag given twice, so the caller's value wins.
 */
export function serviceEntryPoint(
  service: ServiceName,
  sourceRoot?: string,
  nodeFlags: readonly string[] = [],
): NodeEntryPoint {
  const servicesDirectory =
    sourceRoot === undefined ? join(__dirname, '..', '..') : join(sourceRoot, 'services');
  const entry = nodeEntryPoint(join(servicesDirectory, service, 'main'));
  return {
    ...entry,
    argumentList: [...SERVICE_NODE_FLAGS[service], ...nodeFlags, ...entry.argumentList],
  };
}

/**
 * Flags for Node itself that a service starts with (README: start it with them when you run
 * `dist/services/<service>/main.js` yourself). The scheduler makes a few short-lived objects for
 * every URL it admits, leases and settles (decoded records, keys, request bodies), thousands of
 * URLs a second: with V8's default young generation its scavenges took 16 % of its main thread at
 * 1M URLs (bench:frontier, 16 workers). Semi-spaces of 64 MiB halve that and cut its CPU per URL by
 * ~12 % (327/313 → 290/274 µs in alternating runs; 32 MiB: 317), without a higher peak RSS.
 *
 * And its old generation may grow to four times what a mark-compact leaves before the next one
 * (V8 picks a factor of its own: 1.3–1.5 in those runs). Every mark-compact holds the main thread
 * for an 18–21 ms pause after marking steps of up to ~20 ms, and the leases waiting meanwhile were
 * the slowest of a 1M-URL run — its lease p99 at 4 workers. Eight alternating pairs at 1M URLs
 * (30,000 URLs a row, as bench:frontier measures): lease p99 28.1–35.2 ms vs 32.6–55.1,
 * throughput the same or better, peak RSS the same (1.5–1.8 GiB, LMDB's mapped pages most of it;
 * also over 150,000 URLs).
 */
export const SERVICE_NODE_FLAGS: Readonly<Record<ServiceName, readonly string[]>> = {
  scheduler: ['--max-semi-space-size=64', '--heap-growing-percent=300'],
  downloader: [],
  sampler: [],
};

/** True for the structured log line a service prints once its HTTP server listens. */
export function isListeningLine(line: string): boolean {
  return line.includes('"msg":"service listening"');
}

/** The URL in a "service listening" line. */
export function readListeningUrl(line: string): string {
  return (JSON.parse(line) as { url: string }).url;
}
