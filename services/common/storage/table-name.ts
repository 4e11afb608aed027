import { TABLE_NAME_SUFFIXES } from './convention-lists';
import { findNamingViolation } from './naming-convention';
import { StorageConventionError } from './storage-errors';

/*
 * "One table, one job": every table name is `<subject>_<job>`, the job being one of CONVENTION.md's
 * closed table-name suffixes (_task, _result, _runtime, _config, _replica, _rule, _object, _token,
 * _index, _record). If no suffix fits, the table does two jobs and should be split.
 */

/** A table holding another service's data; the type lets `table()` hand out a read-only view. */
export type ReplicaTableName = `${string}_replica`;

const REPLICA_SUFFIX = '_replica';

/** "crs" is the system's name and the downloader's old name; it must not leak into storage names. */
const RESERVED_WORDS: ReadonlySet<string> = new Set(['crs']);

export function isReplicaTableName(name: string): name is ReplicaTableName {
  return name.endsWith(REPLICA_SUFFIX);
}

/** Throws a StorageConventionError explaining the first rule `name` breaks. */
export function assertTableName(name: string): void {
  // Checked first so that "crs" gets this precise reason rather than the generic short-word one.
  const words = name.split('_');
  const reservedWord = words.find((word) => RESERVED_WORDS.has(word));
  if (reservedWord !== undefined) {
    throw new StorageConventionError(
      `table name "${name}" uses the reserved word "${reservedWord}"`,
    );
  }
  const namingViolation = findNamingViolation(name);
  if (namingViolation !== undefined) {
    throw new StorageConventionError(`table name ${namingViolation}`);
  }
  const suffix = `_${words[words.length - 1]}`;
  if (words.length < 2 || !(TABLE_NAME_SUFFIXES as readonly string[]).includes(suffix)) {
    throw new StorageConventionError(
      `table name "${name}" must be <subject>_<job> with a job suffix from CONVENTION.md: ` +
        TABLE_NAME_SUFFIXES.join(', '),
    );
  }
}
