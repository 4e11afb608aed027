import { KeyRangeScan, KeyValueEntry } from '../../ordered-key-value-backend';
import { RetryBudget } from '../retry/retry-budget';
import { RETRY_AFTER_RELOCATE } from '../rpc/region-request-sender';
import { TikvConnection } from '../tikv-connection';
import { throwOnPairErrors } from './storage-errors';

/** Both official clients refuse larger raw scan pages (MaxRawKVScanLimit). */
export const MAX_SCAN_PAGE = 10_240;

/**
 * Forward scan of [start, end) across regions: TiKV clamps each RawScan to the addressed region, so
 * the client walks region by region, continuing from each region's end key, until it has `limit`
 * rows, reaches `end`, or passes the last region. A region error (e.g. a split mid-scan) re-locates
 * the same start key; rows already collected stay valid because they precede it.
 */
export async function scanRange(
  connection: TikvConnection,
  range: KeyRangeScan,
  budget: RetryBudget,
): Promise<KeyValueEntry[]> {
  const { end, limit } = range;
  // An empty `end` means "nothing is below it" here; sending it would mean "unbounded" to TiKV.
  if (Buffer.compare(range.start, end) >= 0) return [];

  const rows: KeyValueEntry[] = [];
  let start = range.start;
  for (;;) {
    const route = await connection.locator.locate(start, budget);
    const pageLimit = Math.min(limit - rows.length, MAX_SCAN_PAGE);
    const response = await connection.sender.send(
      route,
      'RawScan',
      { start_key: start, end_key: end, limit: pageLimit },
      budget,
      true,
    );
    if (response === RETRY_AFTER_RELOCATE) continue;

    throwOnPairErrors('scan', response.kvs);
    for (const pair of response.kvs) rows.push({ key: pair.key, value: pair.value });

    const regionEnd = route.endKey;
    const pageWasFull = response.kvs.length >= pageLimit;
    if (rows.length >= limit) return rows;
    if (pageWasFull) {
      // The page limit (not the region end) stopped this page: continue right after the last key.
      start = Buffer.concat([response.kvs[response.kvs.length - 1].key, ZERO_BYTE]);
      continue;
    }
    if (regionEnd.length === 0 || Buffer.compare(regionEnd, end) >= 0) return rows;
    start = regionEnd;
  }
}

const ZERO_BYTE = Buffer.from([0]);
