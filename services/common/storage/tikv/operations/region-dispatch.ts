import { TikvMethodName, TikvRawMethods } from '../protocol/wire-types';
import { RetryBudget } from '../retry/retry-budget';
import { RETRY_AFTER_RELOCATE } from '../rpc/region-request-sender';
import { TikvConnection } from '../tikv-connection';
import { runWithConcurrency } from './bounded-concurrency';
import { ChunkLimits, groupByRegion, splitIntoChunks } from './region-batches';

type Request<K extends TikvMethodName> = TikvRawMethods[K][0];
type Response<K extends TikvMethodName> = TikvRawMethods[K][1];

/** Region requests in flight per batch operation (client-rust bounds this with a semaphore too). */
const MAX_PARALLEL_REGION_REQUESTS = 16;

/**
 * Sends a single-key request to the region owning `key`, re-locating after every region error
 * until a response arrives or the budget runs out.
 */
export async function sendToKeyOwner<K extends TikvMethodName>(
  connection: TikvConnection,
  key: Buffer,
  method: K,
  request: Request<K>,
  budget: RetryBudget,
  idempotent = true,
): Promise<Response<K>> {
  for (;;) {
    const route = await connection.locator.locate(key, budget);
    const response = await connection.sender.send(route, method, request, budget, idempotent);
    if (response !== RETRY_AFTER_RELOCATE) return response;
  }
}

export interface PerRegionRequestSpec<T, K extends TikvMethodName> {
  method: K;
  keyOf: (item: T) => Buffer;
  sizeOf: (item: T) => number;
  limits: ChunkLimits;
  buildRequest: (chunk: T[]) => Request<K>;
  /** Consumes a successful response (check its error fields, collect its results). */
  onResponse: (chunk: T[], response: Response<K>) => void;
}

/**
 * Splits items per region (and per request size), sends the chunks in parallel, and after a region
 * error re-plans only the failed chunk from scratch: the region may have split, so its keys can now
 * belong to several regions (client-go recurses the same way).
 */
export async function sendPerRegion<T, K extends TikvMethodName>(
  connection: TikvConnection,
  items: readonly T[],
  spec: PerRegionRequestSpec<T, K>,
  budget: RetryBudget,
): Promise<void> {
  if (items.length === 0) return;
  const batches = await groupByRegion(items, spec.keyOf, connection.locator, budget);
  const tasks = batches.flatMap((batch) =>
    splitIntoChunks(batch.items, spec.limits, spec.sizeOf).map((chunk) => async () => {
      const request = spec.buildRequest(chunk);
      const response = await connection.sender.send(
        batch.route,
        spec.method,
        request,
        budget,
        true,
      );
      if (response === RETRY_AFTER_RELOCATE) return sendPerRegion(connection, chunk, spec, budget);
      spec.onResponse(chunk, response);
    }),
  );
  await runWithConcurrency(tasks, MAX_PARALLEL_REGION_REQUESTS);
}
