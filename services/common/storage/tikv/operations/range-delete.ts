import { KeyRange } from '../../ordered-key-value-backend';
import { RetryBudget } from '../retry/retry-budget';
import { RETRY_AFTER_RELOCATE } from '../rpc/region-request-sender';
import { TikvConnection } from '../tikv-connection';
import { throwOnStorageError } from './storage-errors';

/**
 * Deletes [start, end) region by region with RawDeleteRange (client-go's DeleteRange): TiKV
 * refuses a range that passes the addressed region's end (KeyNotInRegion), so each request is cut
 * at min(end, region end) and the next one starts there. After a region error (a split, a moved
 * leader) the same start is located again; rows already deleted stay deleted, and re-sending a
 * delete is harmless, so transport failures are retried too.
 *
 * RawDeleteRange takes no latch and has no atomic mode (notes §5.1): see the caveat on
 * OrderedKeyValueBackend.deleteRange.
 */
export async function deleteKeyRange(
  connection: TikvConnection,
  range: KeyRange,
  budget: RetryBudget,
): Promise<void> {
  const { end } = range;
  // An empty `end` means "nothing is below it" here; sent as is it would mean "unbounded".
  if (Buffer.compare(range.start, end) >= 0) return;

  let start = range.start;
  for (;;) {
    const route = await connection.locator.locate(start, budget);
    const regionEnd = route.endKey;
    const regionEndsFirst = regionEnd.length > 0 && Buffer.compare(regionEnd, end) < 0;
    const pieceEnd = regionEndsFirst ? regionEnd : end;
    const response = await connection.sender.send(
      route,
      'RawDeleteRange',
      { start_key: start, end_key: pieceEnd },
      budget,
      true,
    );
    if (response === RETRY_AFTER_RELOCATE) continue;
    throwOnStorageError('deleteRange', response.error);
    if (!regionEndsFirst) return;
    start = pieceEnd;
  }
}
