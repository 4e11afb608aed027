import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** An input the gate needs cannot be read for a reason other than being absent (exit code 2). */
export class GateInputError extends Error {}

/**
 * The files of the repository under `root`, read at most once each. Paths in and out are relative
 * to the root with `/` separators, which is also how findings name them. Counts every file it
 * reads, for the summary.
 */
export class RepositoryFiles {
  readonly #texts = new Map<string, string | undefined>();

  constructor(readonly root: string) {
    let isDirectory = false;
    try {
      isDirectory = statSync(root).isDirectory();
    } catch {
      isDirectory = false;
    }
    if (!isDirectory) {
      throw new GateInputError(`--root ${root} is not a directory`);
    }
  }

  get scannedCount(): number {
    return [...this.#texts.values()].filter((text) => text !== undefined).length;
  }

  /** The file's text, or undefined when it does not exist. */
  read(path: string): string | undefined {
    if (!this.#texts.has(path)) {
      this.#texts.set(path, this.#readFromDisk(path));
    }
    return this.#texts.get(path);
  }

  #readFromDisk(path: string): string | undefined {
    try {
      return readFileSync(join(this.root, path), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return undefined;
      }
      throw new GateInputError(`cannot read ${path}: ${(error as Error).message}`);
    }
  }

  /**
   * Files under `directory` whose names end with one of `suffixes`, sorted; node_modules and
   * dot-directories are skipped. A missing directory has no files.
   */
  list(directory: string, suffixes: readonly string[]): string[] {
    const found: string[] = [];
    const walk = (absolute: string): void => {
      let entries;
      try {
        entries = readdirSync(absolute, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          return;
        }
        throw new GateInputError(`cannot list ${absolute}: ${(error as Error).message}`);
      }
      for (const entry of entries) {
        if (entry.name.startsWith('.') || entry.name === 'node_modules') {
          continue;
        }
        const child = join(absolute, entry.name);
        if (entry.isDirectory()) {
          walk(child);
        } else if (suffixes.some((suffix) => entry.name.endsWith(suffix))) {
          found.push(relative(this.root, child).split(sep).join('/'));
        }
      }
    };
    walk(join(this.root, directory));
    return found.sort();
  }
}
