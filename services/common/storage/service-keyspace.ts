import { jsonDocumentCodec, type DocumentCodec } from './document-codec';
import { ReadonlyKeyspaceTable, KeyspaceTable, ReplicaKeyspaceTable } from './keyspace-table';
import type { OrderedKeyValueBackend } from './ordered-key-value-backend';
import {
  ResidentTableStorage,
  type ResidentTableReads,
  type ResidentWrites,
} from './resident-table-storage';
import { assertServiceName, type ServiceName } from './service-name';
import { StorageConventionError } from './storage-errors';
import { TableLocation } from './storage-key';
import { assertTableName, isReplicaTableName, type ReplicaTableName } from './table-name';
import { TableStorage } from './table-storage';

/**
 * One service's view of the ordered key-value store. Every key it can build starts with
 * `{service}:{table}:`, the table name is validated against CONVENTION.md, and the backend sits in a
 * true private field, so code holding a handle cannot reach another service's rows: not by table
 * name, not by primary key (escaped, see primary-key.ts), not by scan prefix or resume point
 * (clamped to the table's range).
 */
export class ServiceKeyspace {
  readonly #backend: OrderedKeyValueBackend;
  readonly #locations = new Map<string, TableLocation>();

  constructor(
    readonly service: ServiceName,
    backend: OrderedKeyValueBackend,
  ) {
    assertServiceName(service);
    this.#backend = backend;
  }

  /**
   * A typed table of this service. A `…_replica` table comes back read-only: replicas change only
   * through `replicaTable(name).applyReplica`, so ordinary code cannot write one by accident.
   * Documents are canonical JSON unless `codec` says otherwise (a record codec for hot tables).
   */
  table<T>(name: ReplicaTableName, codec?: DocumentCodec<T>): ReadonlyKeyspaceTable<T>;
  table<T>(name: string, codec?: DocumentCodec<T>): KeyspaceTable<T>;
  table<T>(
    name: string,
    codec: DocumentCodec<T> = jsonDocumentCodec<T>(),
  ): ReadonlyKeyspaceTable<T> | KeyspaceTable<T> {
    const storage = this.#storageOf<T>(name, codec);
    return isReplicaTableName(name)
      ? new ReadonlyKeyspaceTable(storage)
      : new KeyspaceTable(storage);
  }

  /** The replication code's handle on a `…_replica` table. */
  replicaTable<T>(
    name: ReplicaTableName,
    codec: DocumentCodec<T> = jsonDocumentCodec<T>(),
  ): ReplicaKeyspaceTable<T> {
    if (!isReplicaTableName(name)) {
      throw new StorageConventionError(`"${name}" is not a replica table (…_replica)`);
    }
    return new ReplicaKeyspaceTable(this.#storageOf<T>(name, codec));
  }

  /**
   * A table whose reads its resident owner answers (resident-table-storage.ts): its rows are
   * resident rows of a write-behind store (`through`), or an index the owner derives from them
   * (`derived`: writes dropped).
   */
  residentTable<T>(
    name: string,
    codec: DocumentCodec<T>,
    reads: ResidentTableReads<T>,
    writes: ResidentWrites,
  ): KeyspaceTable<T> {
    return new KeyspaceTable(
      new ResidentTableStorage<T>(this.#backend, this.#locationOf(name), codec, reads, writes),
    );
  }

  #storageOf<T>(name: string, codec: DocumentCodec<T>): TableStorage<T> {
    return new TableStorage<T>(this.#backend, this.#locationOf(name), codec);
  }

  #locationOf(name: string): TableLocation {
    let location = this.#locations.get(name);
    if (location === undefined) {
      assertTableName(name);
      location = new TableLocation(this.service, name);
      this.#locations.set(name, location);
    }
    return location;
  }
}

export function openServiceKeyspace(
  service: ServiceName,
  backend: OrderedKeyValueBackend,
): ServiceKeyspace {
  return new ServiceKeyspace(service, backend);
}
