import { parseContractType, type ContractType } from './contract-types';
import { finding, type Finding, type SourceLocation } from './finding';
import {
  firstToken,
  parseMarkdown,
  type MarkdownCell,
  type MarkdownHeading,
  type MarkdownTable,
} from './markdown-tables';

/*
 * The tables of CONTRACT.md that bind names. A table is bound by the nearest heading above it of one
 * of four forms (levels 2–6):
 *   #### Schema `LeaseTask`            | field | type | required | nullable | note |
 *   #### Parameters `GET /v1/lease`    | parameter | in | type | required | note |
 *   #### Enum `fetch_status`           | value | meaning |
 *   #### Storage keys                  | key | owner | job |
 * Under such a heading, a table whose first header cell is the expected first column is bound (and
 * its whole header must then match); any other table there, and every table under other headings,
 * is prose — CONTRACT.md mixes both (e.g. "what the scheduler does with a verdict" right after a
 * schema table).
 *
 * A row is marked deprecated by starting its last cell (note, meaning or job) with the word
 * `deprecated` — `**deprecated** (v2): use render_strategy.` Rows are never deleted (§七: fields are
 * only added); a deprecated row stays, and `npm run contract:diff` fails on a deleted one.
 */

export const CONTRACT_FILE = 'CONTRACT.md';

export interface FieldRow {
  name: string;
  nameCell: MarkdownCell;
  typeCell: MarkdownCell;
  /** Undefined when the cell is outside the type vocabulary (already reported). */
  type: ContractType | undefined;
  requiredCell: MarkdownCell;
  isRequired: boolean | undefined;
  nullableCell: MarkdownCell;
  isNullable: boolean | undefined;
  isDeprecated: boolean;
}

export interface SchemaTable {
  schemaName: string;
  location: SourceLocation;
  rows: FieldRow[];
}

export interface ParameterRow {
  name: string;
  nameCell: MarkdownCell;
  inCell: MarkdownCell;
  typeCell: MarkdownCell;
  type: ContractType | undefined;
  requiredCell: MarkdownCell;
  isRequired: boolean | undefined;
  isDeprecated: boolean;
}

export interface ParameterTable {
  /** `GET /v1/lease` */
  operationKey: string;
  location: SourceLocation;
  rows: ParameterRow[];
}

export interface EnumValueRow {
  value: string;
  cell: MarkdownCell;
  isDeprecated: boolean;
}

export interface EnumTable {
  fieldName: string;
  location: SourceLocation;
  rows: EnumValueRow[];
}

export interface StorageKeyRow {
  key: string;
  keyCell: MarkdownCell;
  ownerCell: MarkdownCell | undefined;
  isDeprecated: boolean;
}

export interface ContractModel {
  schemaTables: Map<string, SchemaTable>;
  parameterTables: Map<string, ParameterTable>;
  enumTables: Map<string, EnumTable>;
  storageKeys: StorageKeyRow[];
  /** Malformed bound tables: wrong header, unknown type, a yes/no cell with something else. */
  findings: Finding[];
}

type BindingKind = 'schema' | 'parameters' | 'enum' | 'storage';

interface Binding {
  kind: BindingKind;
  /** Schema name, operation key or field name; empty for the storage keys. */
  subject: string;
  heading: MarkdownHeading;
}

const EXPECTED_HEADERS: Record<BindingKind, string[]> = {
  schema: ['field', 'type', 'required', 'nullable', 'note'],
  parameters: ['parameter', 'in', 'type', 'required', 'note'],
  enum: ['value', 'meaning'],
  storage: ['key', 'owner', 'job'],
};

const HEADING_FORMS: Array<{ kind: BindingKind; pattern: RegExp }> = [
  { kind: 'schema', pattern: /^Schema\s+`([^`]+)`/ },
  { kind: 'parameters', pattern: /^Parameters\s+`([A-Za-z]+\s+[^`]+)`/ },
  { kind: 'enum', pattern: /^Enum\s+`([^`]+)`/ },
  { kind: 'storage', pattern: /^Storage keys\b/ },
];

const DEPRECATED_MARK = /^[*_`\s]*deprecated\b/i;

/** Whether a row's last cell (note, meaning, job) starts with the word `deprecated`. */
export function isMarkedDeprecated(row: MarkdownCell[]): boolean {
  return DEPRECATED_MARK.test(row.at(-1)?.text ?? '');
}

export function cellLocation(cell: MarkdownCell): SourceLocation {
  return { file: CONTRACT_FILE, line: cell.line, column: cell.column };
}

function headingLocation(heading: MarkdownHeading): SourceLocation {
  return { file: CONTRACT_FILE, line: heading.line, column: heading.column };
}

function bindingOf(heading: MarkdownHeading | undefined): Binding | undefined {
  if (heading === undefined || heading.level < 2) {
    return undefined;
  }
  for (const form of HEADING_FORMS) {
    const match = form.pattern.exec(heading.text);
    if (match) {
      const subject = (match[1] ?? '').trim().replace(/\s+/, ' ');
      const [method, ...path] = subject.split(' ');
      return {
        kind: form.kind,
        subject: form.kind === 'parameters' ? `${method.toUpperCase()} ${path.join(' ')}` : subject,
        heading,
      };
    }
  }
  return undefined;
}

export function parseContract(text: string): ContractModel {
  const document = parseMarkdown(text);
  const model: ContractModel = {
    schemaTables: new Map(),
    parameterTables: new Map(),
    enumTables: new Map(),
    storageKeys: [],
    findings: [],
  };
  const boundHeadings = new Set<MarkdownHeading>();
  for (const table of document.tables) {
    const binding = bindingOf(table.heading);
    if (binding === undefined || !isBoundTable(table, binding)) {
      continue;
    }
    if (boundHeadings.has(binding.heading)) {
      model.findings.push(
        contractFinding(
          { file: CONTRACT_FILE, line: table.line, column: 1 },
          `a second \`${EXPECTED_HEADERS[binding.kind][0]}\` table under "${binding.heading.text}"; ` +
            'one heading binds one table — merge them',
        ),
      );
      continue;
    }
    boundHeadings.add(binding.heading);
    new TableReader(model, table, binding).read();
  }
  for (const heading of document.headings) {
    const binding = bindingOf(heading);
    if (binding !== undefined && !boundHeadings.has(heading)) {
      model.findings.push(
        contractFinding(
          headingLocation(heading),
          `"${heading.text}" binds no table: add one with the header ` +
            `| ${EXPECTED_HEADERS[binding.kind].join(' | ')} |`,
        ),
      );
    }
  }
  return model;
}

function isBoundTable(table: MarkdownTable, binding: Binding): boolean {
  return table.header[0]?.text.toLowerCase() === EXPECTED_HEADERS[binding.kind][0];
}

function contractFinding(location: SourceLocation, message: string, suggestion?: string): Finding {
  return finding('contract-coverage', location, message, suggestion);
}

/** Reads one bound table into the model, reporting every malformed cell it meets. */
class TableReader {
  constructor(
    private readonly model: ContractModel,
    private readonly table: MarkdownTable,
    private readonly binding: Binding,
  ) {}

  read(): void {
    const expected = EXPECTED_HEADERS[this.binding.kind];
    const header = this.table.header.map((cell) => cell.text.toLowerCase());
    if (header.join('|') !== expected.join('|')) {
      this.model.findings.push(
        contractFinding(
          cellLocation(this.table.header[0]),
          `the table under "${this.binding.heading.text}" must have the header | ${expected.join(' | ')} |`,
        ),
      );
      return;
    }
    const rows = this.table.rows.filter((row) => this.#hasAllCells(row, expected.length));
    const location = headingLocation(this.binding.heading);
    switch (this.binding.kind) {
      case 'schema':
        this.#register(this.model.schemaTables, {
          schemaName: this.binding.subject,
          location,
          rows: this.#unique(rows).map((row) => this.#fieldRow(row)),
        });
        break;
      case 'parameters':
        this.#register(this.model.parameterTables, {
          operationKey: this.binding.subject,
          location,
          rows: this.#unique(rows).map((row) => this.#parameterRow(row)),
        });
        break;
      case 'enum':
        this.#register(this.model.enumTables, {
          fieldName: this.binding.subject,
          location,
          rows: this.#unique(rows).map((row) => ({
            value: firstToken(row[0]),
            cell: row[0],
            isDeprecated: isMarkedDeprecated(row),
          })),
        });
        break;
      case 'storage':
        this.model.storageKeys.push(
          ...rows.map((row) => ({
            key: /`([^`]+)`/.exec(row[0].text)?.[1] ?? firstToken(row[0]),
            keyCell: row[0],
            ownerCell: row[1],
            isDeprecated: isMarkedDeprecated(row),
          })),
        );
        break;
    }
  }

  #register<T>(tables: Map<string, T>, table: T): void {
    if (tables.has(this.binding.subject)) {
      this.model.findings.push(
        contractFinding(
          headingLocation(this.binding.heading),
          `"${this.binding.heading.text}" appears twice in CONTRACT.md; keep one table`,
        ),
      );
      return;
    }
    tables.set(this.binding.subject, table);
  }

  #hasAllCells(row: MarkdownCell[], count: number): boolean {
    if (row.length >= count && firstToken(row[0]) !== '') {
      return true;
    }
    this.model.findings.push(
      contractFinding(
        cellLocation(row[0] ?? { text: '', line: this.table.line, column: 1 }),
        row.length < count
          ? `this row has ${row.length} cells; the header has ${count}`
          : 'this row has no name in its first cell',
      ),
    );
    return false;
  }

  /** Drops (and reports) a second row with the same name. */
  #unique(rows: MarkdownCell[][]): MarkdownCell[][] {
    const seen = new Set<string>();
    return rows.filter((row) => {
      const name = firstToken(row[0]);
      if (seen.has(name)) {
        this.model.findings.push(
          contractFinding(
            cellLocation(row[0]),
            `\`${name}\` has a second row in this table; keep one`,
          ),
        );
        return false;
      }
      seen.add(name);
      return true;
    });
  }

  #fieldRow(row: MarkdownCell[]): FieldRow {
    const [nameCell, typeCell, requiredCell, nullableCell] = row;
    return {
      name: firstToken(nameCell),
      nameCell,
      typeCell,
      type: this.#type(typeCell),
      requiredCell,
      isRequired: this.#yesNo(requiredCell),
      nullableCell,
      isNullable: this.#yesNo(nullableCell),
      isDeprecated: isMarkedDeprecated(row),
    };
  }

  #parameterRow(row: MarkdownCell[]): ParameterRow {
    const [nameCell, inCell, typeCell, requiredCell] = row;
    if (inCell.text !== 'query' && inCell.text !== 'path') {
      this.model.findings.push(
        contractFinding(
          cellLocation(inCell),
          `the \`in\` cell must be \`query\` or \`path\`, not \`${inCell.text}\``,
        ),
      );
    }
    return {
      name: firstToken(nameCell),
      nameCell,
      inCell,
      typeCell,
      type: this.#type(typeCell),
      requiredCell,
      isRequired: this.#yesNo(requiredCell),
      isDeprecated: isMarkedDeprecated(row),
    };
  }

  #type(cell: MarkdownCell): ContractType | undefined {
    const type = parseContractType(cell.text);
    if (type === undefined) {
      this.model.findings.push(
        contractFinding(
          cellLocation(cell),
          `\`${cell.text}\` is not a contract type: use string, integer, number, boolean, ` +
            'string (date-time), enum <field> [(v1, v2)], object <Schema>, array of <Schema or type>',
        ),
      );
    }
    return type;
  }

  #yesNo(cell: MarkdownCell): boolean | undefined {
    const word = firstToken(cell).toLowerCase();
    if (word === 'yes' || word === 'no') {
      return word === 'yes';
    }
    this.model.findings.push(
      contractFinding(cellLocation(cell), `\`${cell.text}\` must be \`yes\` or \`no\``),
    );
    return undefined;
  }
}
