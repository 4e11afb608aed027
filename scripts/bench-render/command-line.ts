import { InvalidArgumentError } from 'commander';

/** A commander parser for a whole number in [min, max]. */
export function integerFrom(min: number, max: number): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    }
    return parsed;
  };
}

/** A commander parser for a comma-separated list of whole numbers in [min, max]. */
export function integerListFrom(min: number, max: number): (value: string) => number[] {
  const parse = integerFrom(min, max);
  return (value) => value.split(',').map((entry) => parse(entry.trim()));
}

/** Collects a repeatable option (`--downloader-arg a --downloader-arg b`). */
export function collectRepeated(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export const DOWNLOADER_ARGUMENT_OPTION = [
  '--downloader-arg <flag>',
  'extra flag for the started downloader process (repeatable)',
  collectRepeated,
  [] as string[],
] as const;
