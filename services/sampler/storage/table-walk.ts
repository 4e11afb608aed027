import type { ReadonlyKeyspaceTable } from '../../common/storage/keyspace-table';
import type { KeyspaceRow } from '../../common/storage/keyspace-types';
import type { PrimaryKeyPrefixInput } from '../../common/storage/primary-key';

const PAGE_SIZE = 1000;

/**
 * Visits every live row of a table in primary-key order, one page at a time (memory stays bounded
 * by the page), until `visit` answers false; with `prefix`, only the rows whose key starts with it.
 */
export async function walkTable<T>(
  table: ReadonlyKeyspaceTable<T>,
  visit: (row: KeyspaceRow<T>) => boolean | void | Promise<boolean | void>,
  prefix?: PrimaryKeyPrefixInput,
): Promise<void> {
  let after = undefined;
  do {
    const page = await table.scan({ limit: PAGE_SIZE, after, prefix });
    for (const row of page.rows) if ((await visit(row)) === false) return;
    after = page.nextAfter ?? undefined;
  } while (after !== undefined);
}

/** Every document of a small table (claims, consumers). */
export async function readAllDocuments<T>(table: ReadonlyKeyspaceTable<T>): Promise<T[]> {
  const documents: T[] = [];
  await walkTable(table, (row) => {
    documents.push(row.value);
  });
  return documents;
}
