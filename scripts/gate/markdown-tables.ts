/*
 * Just enough GitHub-flavoured markdown for CONTRACT.md and CONVENTION.md: ATX headings and pipe
 * tables, each with 1-based line/column positions so findings can point at the exact cell. Fenced
 * code blocks are skipped, so an example table inside ``` binds nothing. Tables must start their rows
 * with `|` (the documents' fixed format); a row line ends the table when it no longer does.
 */

export interface MarkdownHeading {
  level: number;
  /** The heading text without the `#` marks, trimmed. */
  text: string;
  line: number;
  /** Column of the first character of `text`. */
  column: number;
}

export interface MarkdownCell {
  /** Cell content, trimmed. */
  text: string;
  line: number;
  /** Column of the first non-space character (of the cell start when the cell is empty). */
  column: number;
}

export interface MarkdownTable {
  line: number;
  header: MarkdownCell[];
  rows: MarkdownCell[][];
  /** The nearest heading above the table, if any: what binds it. */
  heading: MarkdownHeading | undefined;
}

export interface MarkdownDocument {
  headings: MarkdownHeading[];
  tables: MarkdownTable[];
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SEPARATOR_CELL = /^:?-+:?$/;

export function parseMarkdown(text: string): MarkdownDocument {
  const lines = text.split(/\r?\n/);
  const headings: MarkdownHeading[] = [];
  const tables: MarkdownTable[] = [];
  let fence: string | undefined;
  let heading: MarkdownHeading | undefined;

  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index];
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length) {
        fence = undefined;
      }
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      continue;
    }
    const headingMatch = HEADING.exec(line);
    if (headingMatch) {
      const textStart = line.indexOf(headingMatch[2], headingMatch[1].length);
      heading = {
        level: headingMatch[1].length,
        text: headingMatch[2].trim(),
        line: index + 1,
        column: textStart + 1,
      };
      headings.push(heading);
      continue;
    }
    if (isRowLine(line) && index + 1 < lines.length && isSeparatorLine(lines[index + 1])) {
      const table: MarkdownTable = {
        line: index + 1,
        header: splitRow(line, index + 1),
        rows: [],
        heading,
      };
      index += 2;
      while (index < lines.length && isRowLine(lines[index])) {
        table.rows.push(splitRow(lines[index], index + 1));
        index += 1;
      }
      index -= 1;
      tables.push(table);
    }
  }
  return { headings, tables };
}

function isRowLine(line: string): boolean {
  return line.trimStart().startsWith('|');
}

function isSeparatorLine(line: string): boolean {
  if (!isRowLine(line)) {
    return false;
  }
  const cells = splitRow(line, 0);
  return cells.length > 0 && cells.every((cell) => SEPARATOR_CELL.test(cell.text));
}

/** Splits a `| a | b |` line on unescaped pipes; the outer pipes delimit, they are not cells. */
function splitRow(line: string, lineNumber: number): MarkdownCell[] {
  const cells: MarkdownCell[] = [];
  let cellStart = line.indexOf('|') + 1;
  for (let position = cellStart; position <= line.length; position += 1) {
    const atEnd = position === line.length;
    if (!atEnd && (line[position] !== '|' || line[position - 1] === '\\')) {
      continue;
    }
    const raw = line.slice(cellStart, position);
    const isTrailingEmpty = atEnd && raw.trim() === '';
    if (!isTrailingEmpty) {
      const leading = raw.length - raw.trimStart().length;
      cells.push({
        text: raw.trim().replace(/\\\|/g, '|'),
        line: lineNumber,
        column: cellStart + (raw.trim() === '' ? 0 : leading) + 1,
      });
    }
    cellStart = position + 1;
  }
  return cells;
}

/** The first whitespace-separated token of a cell, without surrounding backticks. */
export function firstToken(cell: MarkdownCell): string {
  const token = cell.text.split(/\s+/)[0] ?? '';
  const quoted = /^`([^`]*)`$/.exec(token);
  return quoted ? quoted[1] : token;
}
