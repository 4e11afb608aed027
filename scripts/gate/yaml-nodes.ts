import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { SourceLocation } from './finding';

/*
 * Read-only access to a parsed YAML document that keeps source positions. The OpenAPI model works
 * on yaml's node tree rather than on plain objects because every finding must name the line and
 * column of the key it is about.
 */

export interface YamlEntry {
  key: string;
  keyNode: Node;
  value: Node | null;
}

export class YamlFile {
  readonly root: Node | null;
  /** The first syntax error, if the text is not valid YAML. */
  readonly error: { message: string; location: SourceLocation } | undefined;
  readonly #lineCounter: LineCounter;

  constructor(
    readonly file: string,
    text: string,
  ) {
    this.#lineCounter = new LineCounter();
    // uniqueKeys: false halves the parse time of the specs; the OpenAPI reader reports duplicated
    // property and schema names itself, which are the duplicates that matter for names.
    const document = parseDocument(text, {
      lineCounter: this.#lineCounter,
      prettyErrors: false,
      uniqueKeys: false,
    });
    const [firstError] = document.errors;
    this.error =
      firstError === undefined
        ? undefined
        : {
            message: firstError.message.split('\n')[0],
            location: this.locationOfOffset(firstError.pos[0]),
          };
    this.root = (document.contents as Node | null) ?? null;
  }

  locationOf(node: Node): SourceLocation {
    return this.locationOfOffset(node.range?.[0] ?? 0);
  }

  locationOfOffset(offset: number): SourceLocation {
    const position = this.#lineCounter.linePos(offset);
    return { file: this.file, line: position.line, column: position.col };
  }
}

/** The entries of a mapping node (none for anything else), keys as strings. */
export function entriesOf(node: Node | null | undefined): YamlEntry[] {
  if (!isMap(node)) {
    return [];
  }
  return node.items.flatMap((pair) =>
    isScalar(pair.key)
      ? [
          {
            key: String(pair.key.value),
            keyNode: pair.key,
            value: (pair.value as Node | null) ?? null,
          },
        ]
      : [],
  );
}

/** The entries whose key already appeared earlier in the same mapping. */
export function duplicateEntries(node: Node | null | undefined): YamlEntry[] {
  const seen = new Set<string>();
  return entriesOf(node).filter((entry) => seen.has(entry.key) || !seen.add(entry.key));
}

export function valueAt(node: Node | null | undefined, key: string): Node | null {
  return entriesOf(node).find((entry) => entry.key === key)?.value ?? null;
}

export function entryAt(node: Node | null | undefined, key: string): YamlEntry | undefined {
  return entriesOf(node).find((entry) => entry.key === key);
}

export function itemsOf(node: Node | null | undefined): Node[] {
  return isSeq(node) ? (node.items as Node[]) : [];
}

/** A scalar's value as a string (`true` → "true"); undefined for collections and absent nodes. */
export function scalarText(node: Node | null | undefined): string | undefined {
  return isScalar(node) && node.value !== null && node.value !== undefined
    ? String(node.value)
    : undefined;
}

export function isNullScalar(node: Node | null | undefined): boolean {
  return isScalar(node) && node.value === null;
}

export function isTrue(node: Node | null | undefined): boolean {
  return isScalar(node) && node.value === true;
}
