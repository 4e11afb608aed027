import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `directory`, recursively; empty when the directory does not exist. */
export function listFiles(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}
