import { finding, startOf, type Finding } from './finding';
import {
  firstToken,
  parseMarkdown,
  type MarkdownDocument,
  type MarkdownTable,
} from './markdown-tables';
import { toSnakeCase } from './name-similarity';

/*
 * CONVENTION.md's lists, read from the document itself so that the document stays the only place
 * to edit them. Each list is the first column of the table under a heading whose text starts with
 * the title below; the unit suffixes come from the prose of the duration-words section and the
 * boolean prefixes from the "Booleans" row of the rules table (both written there in backticks).
 * A list the gate cannot find is reported as a finding: silently checking against an empty list
 * would pass everything.
 */

export const CONVENTION_FILE = 'CONVENTION.md';

const SECTION_TITLES = {
  whitelist: 'Abbreviation whitelist',
  standardNames: 'Names that mirror an external standard',
  shortWords: 'Short words',
  truncations: 'Forbidden truncations',
  durationWords: 'Duration words',
  tableSuffixes: 'Table name suffixes',
  grandfathered: 'Grandfathered names',
  rules: 'Rules',
} as const;

/** A forbidden truncation; `words` has several entries for phrases such as `config_value`. */
export interface Truncation {
  words: string[];
  /** The first alternative of the "write instead" column, when it is a plain word. */
  replacement: string | undefined;
}

export interface ConventionModel {
  /** Words of three letters or fewer that may appear: whitelist, standard names, short words. */
  allowedShortWords: ReadonlySet<string>;
  truncations: readonly Truncation[];
  durationWords: ReadonlySet<string>;
  /** `_ms`, `_seconds`, … */
  unitSuffixes: readonly string[];
  /** `is_`, `should_`, `has_` */
  booleanPrefixes: readonly string[];
  /** `_task`, `_result`, … */
  tableSuffixes: readonly string[];
  grandfatheredNames: ReadonlySet<string>;
  /** Problems reading the document itself. */
  findings: Finding[];
}

export const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const SHORT_WORD_LENGTH = 3;

export function parseConvention(text: string): ConventionModel {
  const document = parseMarkdown(text);
  const findings: Finding[] = [];
  const listOf = (title: string): MarkdownTable | undefined => {
    const table = tableUnder(document, title);
    if (table === undefined) {
      findings.push(
        finding(
          'convention',
          startOf(CONVENTION_FILE),
          `CONVENTION.md has no table under a heading "${title}"; the gate reads that list from it`,
        ),
      );
    }
    return table;
  };
  const firstColumn = (title: string): string[] =>
    (listOf(title)?.rows ?? []).map((row) => (row[0] ? firstToken(row[0]) : '')).filter(Boolean);

  const truncations = (listOf(SECTION_TITLES.truncations)?.rows ?? [])
    .filter((row) => row[0] !== undefined)
    .map((row) => ({
      words: firstToken(row[0]).split('_'),
      replacement: /^`?([a-z]+)`?(?:[\s,→]|$)/.exec(row[1]?.text ?? '')?.[1],
    }));

  const unitSuffixes = backtickedTokens(
    sectionText(text, document, SECTION_TITLES.durationWords),
  ).filter((token) => /^_[a-z]+$/.test(token));
  if (unitSuffixes.length === 0) {
    findings.push(
      finding(
        'convention',
        startOf(CONVENTION_FILE),
        `CONVENTION.md's "${SECTION_TITLES.durationWords}" section names no unit suffix in backticks (\`_ms\`, …)`,
      ),
    );
  }
  const booleanRow = tableUnder(document, SECTION_TITLES.rules)?.rows.find((row) =>
    /^booleans\b/i.test(row[0]?.text ?? ''),
  );
  const booleanPrefixes = backtickedTokens(
    booleanRow
      ?.slice(1)
      .map((cell) => cell.text)
      .join(' ') ?? '',
  ).filter((token) => /^[a-z]+_$/.test(token));
  if (booleanPrefixes.length === 0) {
    findings.push(
      finding(
        'convention',
        startOf(CONVENTION_FILE),
        'CONVENTION.md\'s rules table has no "Booleans …" row naming the prefixes in backticks (`is_`, …)',
      ),
    );
  }

  return {
    allowedShortWords: new Set([
      ...firstColumn(SECTION_TITLES.whitelist),
      ...firstColumn(SECTION_TITLES.standardNames),
      ...firstColumn(SECTION_TITLES.shortWords),
    ]),
    truncations,
    durationWords: new Set(firstColumn(SECTION_TITLES.durationWords)),
    unitSuffixes,
    booleanPrefixes,
    tableSuffixes: firstColumn(SECTION_TITLES.tableSuffixes),
    grandfatheredNames: new Set(firstColumn(SECTION_TITLES.grandfathered)),
    findings,
  };
}

function headingMatches(headingText: string, title: string): boolean {
  return headingText.toLowerCase().startsWith(title.toLowerCase());
}

function tableUnder(document: MarkdownDocument, title: string): MarkdownTable | undefined {
  return document.tables.find(
    (table) => table.heading !== undefined && headingMatches(table.heading.text, title),
  );
}

/** The raw text between the heading titled `title` and the next heading. */
function sectionText(text: string, document: MarkdownDocument, title: string): string {
  const index = document.headings.findIndex((heading) => headingMatches(heading.text, title));
  if (index < 0) {
    return '';
  }
  const lines = text.split(/\r?\n/);
  const end = document.headings[index + 1]?.line ?? lines.length + 1;
  return lines.slice(document.headings[index].line, end - 1).join('\n');
}

function backtickedTokens(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]);
}

/** One way a name breaks CONVENTION.md's word rules, with the name that would fix it. */
export interface NameProblem {
  message: string;
  suggestion?: string;
}

/**
 * The rules every wire name obeys whatever its type: snake_case, no forbidden truncation, and every
 * word of three letters or fewer listed in the whitelist, the standard names or the short words.
 */
export function checkNameWords(name: string, convention: ConventionModel): NameProblem[] {
  if (!SNAKE_CASE.test(name)) {
    const snake = toSnakeCase(name);
    return [
      {
        message: `\`${name}\` is not lowercase snake_case`,
        suggestion: SNAKE_CASE.test(snake) ? snake : undefined,
      },
    ];
  }
  const words = name.split('_');
  const problems: NameProblem[] = [];
  for (const truncation of convention.truncations) {
    const at = indexOfSequence(words, truncation.words);
    if (at < 0) {
      continue;
    }
    const fixed =
      truncation.replacement === undefined
        ? undefined
        : [
            ...words.slice(0, at),
            truncation.replacement,
            ...words.slice(at + truncation.words.length),
          ].join('_');
    problems.push({
      message: `\`${name}\` uses the forbidden truncation \`${truncation.words.join('_')}\``,
      suggestion: fixed,
    });
  }
  const isTruncation = (word: string) =>
    convention.truncations.some(
      (truncation) => truncation.words.length === 1 && truncation.words[0] === word,
    );
  for (const word of words) {
    if (
      word.length <= SHORT_WORD_LENGTH &&
      !convention.allowedShortWords.has(word) &&
      !isTruncation(word)
    ) {
      problems.push({
        message:
          `\`${name}\` has the short word \`${word}\`, which CONVENTION.md lists neither as an ` +
          'abbreviation, a standard name nor a short word',
      });
    }
  }
  return problems;
}

function indexOfSequence(words: string[], sequence: string[]): number {
  for (let start = 0; start + sequence.length <= words.length; start += 1) {
    if (sequence.every((word, offset) => words[start + offset] === word)) {
      return start;
    }
  }
  return -1;
}
