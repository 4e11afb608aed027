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
  const compiled = `${pathWithoutExtension}.js`;
  if (existsSync(compiled)) return { command: process.execPath, argumentList: [compiled] };
  return {
    command: process.execPath,
    argumentList: ['--import', 'tsx', `${pathWithoutExtension}.ts`],
  };
}

/**
 * How to start `services/<service>/main` — of this tree, or of another source tree (the previous
 * contract's build, which the compatibility test runs).
 */
export function serviceEntryPoint(service: ServiceName, sourceRoot?: string): NodeEntryPoint {
  const servicesDirectory =
    sourceRoot === undefined ? join(__dirname, '..', '..') : join(sourceRoot, 'services');
  return nodeEntryPoint(join(servicesDirectory, service, 'main'));
}

/** True for the structured log line a service prints once its HTTP server listens. */
export function isListeningLine(line: string): boolean {
  return line.includes('"msg":"service listening"');
}

/** The URL in a "service listening" line. */
export function readListeningUrl(line: string): string {
  return (JSON.parse(line) as { url: string }).url;
}
