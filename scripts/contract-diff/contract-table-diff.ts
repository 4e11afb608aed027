import { cellLocation, type ContractModel } from '../gate/contract-model';
import { formatContractType, type ContractType } from '../gate/contract-types';
import type { SourceLocation } from '../gate/finding';
import type { MarkdownCell } from '../gate/markdown-tables';
import { closestName } from '../gate/name-similarity';
import type { ContractChange } from './breaking-change';
import { travelsInRequests, travelsInResponses, type SchemaDirections } from './schema-directions';

/*
 * The add-only rules oasdiff cannot know, on CONTRACT.md's bound tables (field, parameter, enum and
 * storage-key tables): a row of the frozen contract must still be there — a deleted or renamed row
 * is breaking, since a name is retired by marking its row deprecated (its last cell starting with
 * `deprecated`), never by removing it — and its type, required, nullable and `in` cells may change
 * only in the direction no old party notices (see schema-directions.ts). Added rows and new
 * deprecation marks are reported as passing changes.
 */

export interface ContractTableDiffInput {
  frozen: ContractModel;
  current: ContractModel;
  /** Where the frozen CONTRACT.md is, for locations on its side. */
  frozenFile: string;
  directions: SchemaDirections;
}

/** A bound table reduced to what the comparison needs. */
interface TableView {
  title: string;
  location: SourceLocation;
  rows: Map<string, RowView>;
  /** What a row is called in messages: field, parameter, value, key. */
  rowNoun: string;
}

interface RowView {
  name: string;
  cell: MarkdownCell;
  isDeprecated: boolean;
  /** Compares this (current) row with its frozen self; undefined for rows without attributes. */
  attributes?: RowAttributes;
}

interface RowAttributes {
  type: ContractType | undefined;
  typeCell: MarkdownCell;
  isRequired: boolean | undefined;
  requiredCell: MarkdownCell;
  isNullable?: boolean | undefined;
  nullableCell?: MarkdownCell;
  inCell?: MarkdownCell;
  /** Which way the row's table travels (a parameter always travels in a request). */
  isInRequests: boolean;
  isInResponses: boolean;
}

export function diffContractTables(input: ContractTableDiffInput): ContractChange[] {
  const frozenTables = tableViews(input.frozen, input.directions, (location) => ({
    ...location,
    file: input.frozenFile,
  }));
  const currentTables = tableViews(input.current, input.directions, (location) => location);
  const changes: ContractChange[] = [];
  for (const [key, frozenTable] of frozenTables) {
    const currentTable = currentTables.get(key);
    if (currentTable === undefined) {
      changes.push(tableDeleted(frozenTable, key, [...currentTables.keys()]));
      continue;
    }
    changes.push(...diffRows(frozenTable, currentTable, input.frozenFile));
  }
  for (const [key, table] of currentTables) {
    if (!frozenTables.has(key)) {
      changes.push(passing(table.location, 'contract-table-added', `${table.title} was added`));
    }
  }
  return changes;
}

function tableDeleted(table: TableView, key: string, currentKeys: string[]): ContractChange {
  const renamedTo = closestName(key, currentKeys);
  return {
    ...table.location,
    source: 'contract-tables',
    checkId: 'contract-table-deleted',
    isBreaking: true,
    message:
      `${table.title} and its ${table.rows.size} rows were deleted from CONTRACT.md` +
      (renamedTo === undefined ? '' : ` (renamed to \`${renamedTo}\`?)`) +
      '; names are only added — keep the table, mark retired rows deprecated',
    suggestion: null,
  };
}

function diffRows(frozen: TableView, current: TableView, frozenFile: string): ContractChange[] {
  const changes: ContractChange[] = [];
  const deleted = [...frozen.rows.values()].filter((row) => !current.rows.has(row.name));
  const added = [...current.rows.values()].filter((row) => !frozen.rows.has(row.name));
  const partners = renamePartners(deleted, added);
  for (const row of deleted) {
    const wasAt = `${frozenFile}:${row.cell.line}:${row.cell.column}`;
    const partner = partners.get(row);
    changes.push(
      partner === undefined
        ? breaking(
            current.location,
            'contract-row-deleted',
            `${frozen.rowNoun} \`${row.name}\` of ${current.title} was deleted (frozen at ${wasAt}); ` +
              'names are only added: keep the row and mark it deprecated (its last cell starting ' +
              'with `deprecated`)',
            row.name,
          )
        : breaking(
            cellLocation(partner.cell),
            'contract-row-renamed',
            `\`${partner.name}\` replaces ${frozen.rowNoun} \`${row.name}\` of ${current.title} ` +
              `(frozen at ${wasAt}); a rename is a new ${frozen.rowNoun} plus the old one kept and ` +
              'marked deprecated (CONTRACT.md §七)',
            row.name,
          ),
    );
  }
  for (const row of added) {
    if (![...partners.values()].includes(row)) {
      changes.push(
        passing(
          cellLocation(row.cell),
          'contract-row-added',
          `${current.title} gained \`${row.name}\``,
        ),
      );
    }
  }
  for (const frozenRow of frozen.rows.values()) {
    const currentRow = current.rows.get(frozenRow.name);
    if (currentRow === undefined) continue;
    if (currentRow.isDeprecated && !frozenRow.isDeprecated) {
      changes.push(
        passing(
          cellLocation(currentRow.cell),
          'contract-row-deprecated',
          `\`${currentRow.name}\` of ${current.title} is marked deprecated`,
        ),
      );
    }
    if (frozenRow.attributes !== undefined && currentRow.attributes !== undefined) {
      const subject = `\`${currentRow.name}\` of ${current.title}`;
      changes.push(...diffAttributes(subject, frozenRow.attributes, currentRow.attributes));
    }
  }
  return changes;
}

/**
 * Pairs each deleted row with the added row it was most likely renamed to: a similar name, or —
 * when a table lost exactly one row and gained exactly one — that one.
 */
function renamePartners(deleted: RowView[], added: RowView[]): Map<RowView, RowView> {
  const partners = new Map<RowView, RowView>();
  const free = new Set(added);
  for (const row of deleted) {
    const name = closestName(
      row.name,
      [...free].map((candidate) => candidate.name),
    );
    const partner = [...free].find((candidate) => candidate.name === name);
    if (partner !== undefined) {
      partners.set(row, partner);
      free.delete(partner);
    }
  }
  const unpaired = deleted.filter((row) => !partners.has(row));
  if (unpaired.length === 1 && free.size === 1 && deleted.length === 1) {
    partners.set(unpaired[0], [...free][0]);
  }
  return partners;
}

function diffAttributes(
  subject: string,
  frozen: RowAttributes,
  current: RowAttributes,
): ContractChange[] {
  const changes: ContractChange[] = [];
  if (frozen.type !== undefined && current.type !== undefined) {
    const was = formatContractType(frozen.type);
    const now = formatContractType(current.type);
    if (was !== now && !isWidenedEnum(frozen.type, current.type)) {
      changes.push(
        breaking(
          cellLocation(current.typeCell),
          'contract-type-changed',
          `the type of ${subject} changed from \`${was}\` to \`${now}\`; a type never changes — ` +
            'add a new field instead',
          was,
        ),
      );
    }
  }
  const flip = (
    cell: MarkdownCell | undefined,
    attribute: string,
    was: boolean | undefined,
    now: boolean | undefined,
    breaksWhenSet: boolean,
    breaksWhenCleared: boolean,
    why: string,
  ) => {
    if (cell === undefined || was === undefined || now === undefined || was === now) return;
    const isBreaking = now ? breaksWhenSet : breaksWhenCleared;
    const message = `${attribute} of ${subject} changed from \`${yesNo(was)}\` to \`${yesNo(now)}\``;
    changes.push(
      isBreaking
        ? breaking(
            cellLocation(cell),
            `contract-${attribute}-changed`,
            `${message}; ${why}`,
            yesNo(was),
          )
        : passing(cellLocation(cell), `contract-${attribute}-changed`, message),
    );
  };
  flip(
    current.requiredCell,
    'required',
    frozen.isRequired,
    current.isRequired,
    current.isInRequests,
    current.isInResponses,
    current.isRequired === true
      ? 'old senders may leave it out'
      : 'old readers count on it being present',
  );
  flip(
    current.nullableCell,
    'nullable',
    frozen.isNullable,
    current.isNullable,
    current.isInResponses,
    current.isInRequests,
    current.isNullable === true ? 'old readers do not expect null' : 'old senders may send null',
  );
  if (frozen.inCell !== undefined && current.inCell !== undefined) {
    if (frozen.inCell.text !== current.inCell.text) {
      changes.push(
        breaking(
          cellLocation(current.inCell),
          'contract-in-changed',
          `${subject} moved from \`${frozen.inCell.text}\` to \`${current.inCell.text}\`; old ` +
            'callers still send it where it was',
          frozen.inCell.text,
        ),
      );
    }
  }
  return changes;
}

/** `enum x (a, b)` → `enum x (a, b, c)` or `enum x`: the same value table, more of it. */
function isWidenedEnum(frozen: ContractType, current: ContractType): boolean {
  if (frozen.kind !== 'enum' || current.kind !== 'enum' || frozen.field !== current.field) {
    return false;
  }
  if (current.subset === undefined) return true;
  return (
    frozen.subset !== undefined && frozen.subset.every((value) => current.subset?.includes(value))
  );
}

function tableViews(
  model: ContractModel,
  directions: SchemaDirections,
  relocate: (location: SourceLocation) => SourceLocation,
): Map<string, TableView> {
  const views = new Map<string, TableView>();
  const rowOf = (cell: MarkdownCell, name: string, isDeprecated: boolean): RowView => ({
    name,
    cell,
    isDeprecated,
  });
  for (const table of model.schemaTables.values()) {
    const isInRequests = travelsInRequests(directions, table.schemaName);
    const isInResponses = travelsInResponses(directions, table.schemaName);
    views.set(`Schema ${table.schemaName}`, {
      title: `Schema \`${table.schemaName}\``,
      location: relocate(table.location),
      rowNoun: 'field',
      rows: new Map(
        table.rows.map((row) => [
          row.name,
          {
            ...rowOf(row.nameCell, row.name, row.isDeprecated),
            attributes: {
              type: row.type,
              typeCell: row.typeCell,
              isRequired: row.isRequired,
              requiredCell: row.requiredCell,
              isNullable: row.isNullable,
              nullableCell: row.nullableCell,
              isInRequests,
              isInResponses,
            },
          },
        ]),
      ),
    });
  }
  for (const table of model.parameterTables.values()) {
    views.set(`Parameters ${table.operationKey}`, {
      title: `Parameters \`${table.operationKey}\``,
      location: relocate(table.location),
      rowNoun: 'parameter',
      rows: new Map(
        table.rows.map((row) => [
          row.name,
          {
            ...rowOf(row.nameCell, row.name, row.isDeprecated),
            attributes: {
              type: row.type,
              typeCell: row.typeCell,
              isRequired: row.isRequired,
              requiredCell: row.requiredCell,
              inCell: row.inCell,
              isInRequests: true,
              isInResponses: false,
            },
          },
        ]),
      ),
    });
  }
  for (const table of model.enumTables.values()) {
    views.set(`Enum ${table.fieldName}`, {
      title: `Enum \`${table.fieldName}\``,
      location: relocate(table.location),
      rowNoun: 'value',
      rows: new Map(
        table.rows.map((row) => [row.value, rowOf(row.cell, row.value, row.isDeprecated)]),
      ),
    });
  }
  const firstKey = model.storageKeys[0];
  if (firstKey !== undefined) {
    views.set('Storage keys', {
      title: 'the Storage keys table',
      location: relocate(cellLocation(firstKey.keyCell)),
      rowNoun: 'key',
      rows: new Map(
        model.storageKeys.map((row) => [row.key, rowOf(row.keyCell, row.key, row.isDeprecated)]),
      ),
    });
  }
  return views;
}

function breaking(
  location: SourceLocation,
  checkId: string,
  message: string,
  suggestion?: string,
): ContractChange {
  return {
    ...location,
    source: 'contract-tables',
    checkId,
    isBreaking: true,
    message,
    suggestion: suggestion ?? null,
  };
}

function passing(location: SourceLocation, checkId: string, message: string): ContractChange {
  return {
    ...location,
    source: 'contract-tables',
    checkId,
    isBreaking: false,
    message,
    suggestion: null,
  };
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}
