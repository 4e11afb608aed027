import { LmdbBackend } from '../../common/storage/lmdb-backend';
import { prefixEnd } from '../../common/storage/key-range';
import { TableLocation } from '../../common/storage/storage-key';

/** Rows LMDB holds under a scheduler table (at most 1000), read with a plain open of a stopped store. */
export async function lmdbRowCountOf(storeDirectory: string, table: string): Promise<number> {
  const backend = await LmdbBackend.open(storeDirectory);
  try {
    const { prefixBytes } = new TableLocation('scheduler', table);
    const rows = await backend.scan({
      start: prefixBytes,
      end: prefixEnd(prefixBytes),
      limit: 1000,
    });
    return rows.length;
  } finally {
    await backend.close();
  }
}
