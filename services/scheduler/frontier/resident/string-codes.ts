/**
 * Small numbers for the strings a column repeats — url_state and the reasons (enums the contract
 * extends only by adding values), domains — so that a slot holds a code, not a string. A string
 * gets the next code the first time it is seen; no list of values is built in, so a value a newer
 * contract adds is coded like any other. Code 0 stands for null.
 */
export class StringCodes {
  readonly #codes = new Map<string, number>();
  /** The string of each code; index 0 is null's. */
  readonly #strings: Array<string | null> = [null];

  constructor(private readonly maxCode: number) {}

  /** The code of `text` (0 for null), given one now if it has none yet. */
  codeOf(text: string | null): number {
    if (text === null) return 0;
    let code = this.#codes.get(text);
    if (code === undefined) {
      code = this.#strings.length;
      if (code > this.maxCode) {
        throw new RangeError(`more than ${this.maxCode} distinct values for one column`);
      }
      this.#strings.push(text);
      this.#codes.set(text, code);
    }
    return code;
  }

  /** The code of `text` if it has one (0 for null), -1 otherwise: a lookup that adds nothing. */
  existingCodeOf(text: string | null): number {
    if (text === null) return 0;
    return this.#codes.get(text) ?? -1;
  }

  /** The string of a code codeOf answered. */
  textOf(code: number): string | null {
    const text = this.#strings[code];
    if (text === undefined) throw new RangeError(`no string has code ${code}`);
    return text;
  }

  /** Every string with a code, in code order from 1 (what fromStrings takes back). */
  strings(): string[] {
    return this.#strings.slice(1) as string[];
  }

  /** Codes as `strings()` of another instance gave them. */
  static fromStrings(maxCode: number, strings: readonly string[]): StringCodes {
    const codes = new StringCodes(maxCode);
    for (const text of strings) codes.codeOf(text);
    return codes;
  }

  /** Strings with a code, null's included. */
  get size(): number {
    return this.#strings.length;
  }
}
