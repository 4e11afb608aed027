/*
 * Just enough of Go's lexical structure for the naming gate: the `json:"…"` struct tags of each
 * struct type, and the interpreted string literals, each with its 1-based position. Comments and
 * rune literals are skipped so that a name in a doc comment binds nothing. Struct types are found
 * as gofmt writes them (`type Name struct {` … a line `}`), which is what the generator emits after
 * `gofmt`; a field's tag is the raw string literal on the field's line.
 */

export interface GoPosition {
  line: number;
  column: number;
}

export interface GoJsonTag extends GoPosition {
  /** The struct the field belongs to. */
  structName: string;
  /** The name part of the tag (before the first comma). */
  name: string;
}

export interface GoStruct extends GoPosition {
  name: string;
  tags: GoJsonTag[];
}

export interface GoStringLiteral extends GoPosition {
  /** The literal as written, quotes included. */
  raw: string;
}

export interface GoSource {
  structs: GoStruct[];
  strings: GoStringLiteral[];
}

const STRUCT_START = /^type\s+([A-Za-z_]\w*)\s+struct\s*\{\s*$/;
const JSON_TAG = /json:"([^"]*)"/;

export function scanGoSource(text: string): GoSource {
  const structs: GoStruct[] = [];
  const strings: GoStringLiteral[] = [];
  const lines = text.split('\n');
  let current: GoStruct | undefined;
  let inBlockComment = false;
  lines.forEach((line, index) => {
    const lineNumber = index + 1;
    const tokens = scanLine(line, inBlockComment);
    inBlockComment = tokens.inBlockComment;
    strings.push(...tokens.strings.map((item) => ({ ...item, line: lineNumber })));
    if (current === undefined) {
      const start = tokens.isCode ? STRUCT_START.exec(line) : null;
      if (start) {
        current = {
          name: start[1],
          line: lineNumber,
          column: line.indexOf(start[1]) + 1,
          tags: [],
        };
        structs.push(current);
      }
      return;
    }
    if (/^\}/.test(line)) {
      current = undefined;
      return;
    }
    for (const raw of tokens.rawStrings) {
      const tag = JSON_TAG.exec(raw.raw);
      if (tag) {
        current.tags.push({
          structName: current.name,
          name: tag[1].split(',')[0],
          line: lineNumber,
          column: raw.column + (tag.index ?? 0) + 'json:"'.length,
        });
      }
    }
  });
  return { structs, strings };
}

interface LineTokens {
  strings: Array<{ raw: string; column: number }>;
  rawStrings: Array<{ raw: string; column: number }>;
  inBlockComment: boolean;
  /** False when the whole line is inside a comment. */
  isCode: boolean;
}

/** Strings, raw strings (single-line, as struct tags are) and comment state of one line. */
function scanLine(line: string, startsInBlockComment: boolean): LineTokens {
  const tokens: LineTokens = { strings: [], rawStrings: [], inBlockComment: false, isCode: true };
  let position = 0;
  let inBlockComment = startsInBlockComment;
  if (inBlockComment && !line.includes('*/')) {
    return { ...tokens, inBlockComment: true, isCode: false };
  }
  while (position < line.length) {
    if (inBlockComment) {
      const end = line.indexOf('*/', position);
      if (end < 0) {
        return { ...tokens, inBlockComment: true };
      }
      inBlockComment = false;
      position = end + 2;
      continue;
    }
    const character = line[position];
    if (line.startsWith('//', position)) break;
    if (line.startsWith('/*', position)) {
      inBlockComment = true;
      position += 2;
      continue;
    }
    if (character === '"' || character === "'") {
      let end = position + 1;
      while (end < line.length && line[end] !== character) {
        end += line[end] === '\\' ? 2 : 1;
      }
      if (character === '"') {
        tokens.strings.push({ raw: line.slice(position, end + 1), column: position + 1 });
      }
      position = end + 1;
      continue;
    }
    if (character === '`') {
      const end = line.indexOf('`', position + 1);
      const stop = end < 0 ? line.length : end;
      tokens.rawStrings.push({ raw: line.slice(position, stop + 1), column: position + 1 });
      position = stop + 1;
      continue;
    }
    position += 1;
  }
  return { ...tokens, inBlockComment };
}
