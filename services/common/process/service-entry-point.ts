import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceName } from '../config/service-config';

/**
 * How to start `services/<service>/main`: the compiled JavaScript when this code runs from dist/,
 * otherwise the TypeScript source through tsx (tests and development).
 */
export function serviceEntryPoint(service: ServiceName): {
  command: string;
  argumentList: string[];
} {
  const servicesDirectory = join(__dirname, '..', '..');
  const compiled = join(servicesDirectory, service, 'main.js');
  if (existsSync(compiled)) return { command: process.execPath, argumentList: [compiled] };
  return {
    command: process.execPath,
    argumentList: ['--import', 'tsx', join(servicesDirectory, service, 'main.ts')],
  };
}

/** True for the structured log line a service prints once its HTTP server listens. */
export function isListeningLine(line: string): boolean {
  return line.includes('"msg":"service listening"');
}

/** The URL in a "service listening" line. */
export function readListeningUrl(line: string): string {
  return (JSON.parse(line) as { url: string }).url;
}
