import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

interface OpenApiToolsConfig {
  'generator-cli': { version: string; storageDir?: string };
}

/**
 * Where the pinned openapi-generator jar lives: `<storageDir>/<version>.jar` as configured in
 * openapitools.json — outside node_modules, so `npm ci` does not wipe it.
 */
export function locateGeneratorJar(repositoryRoot: string): { version: string; jarPath: string } {
  const config = JSON.parse(
    readFileSync(join(repositoryRoot, 'openapitools.json'), 'utf8'),
  ) as OpenApiToolsConfig;
  const { version, storageDir = './.tools/openapi-generator' } = config['generator-cli'];
  return { version, jarPath: resolve(repositoryRoot, storageDir, `${version}.jar`) };
}

export function requireGeneratorJar(repositoryRoot: string): string {
  const { version, jarPath } = locateGeneratorJar(repositoryRoot);
  if (!existsSync(jarPath)) {
    throw new Error(
      `openapi-generator ${version} is missing at ${jarPath}.\n` +
        `Run: bash scripts/setup/ensure-generator-jar.sh  (downloads it, through Maven if needed)`,
    );
  }
  return jarPath;
}
