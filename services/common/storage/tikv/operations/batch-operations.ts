import { KeyValueWrite } from '../../ordered-key-value-backend';
import { RetryBudget } from '../retry/retry-budget';
import { TikvConnection } from '../tikv-connection';
import { ChunkLimits } from './region-batches';
import { sendPerRegion } from './region-dispatch';
import { throwOnPairErrors, throwOnStorageError } from './storage-errors';
import { toWireTtl } from './ttl-seconds';

/** client-go's raw batch limits: 512 keys per get/delete, 16 KiB of key+value per put. */
const KEY_BATCH_LIMITS: ChunkLimits = { maxItems: 512, maxBytes: Number.POSITIVE_INFINITY };
const PUT_BATCH_LIMITS: ChunkLimits = { maxItems: 512, maxBytes: 16 * 1024 };

const identity = (key: Buffer): Buffer => key;
const keyLength = (key: Buffer): number => key.length;

/** Values in input order; duplicate keys are fetched once. */
export async function batchGet(
  connection: TikvConnection,
  keys: readonly Buffer[],
  budget: RetryBudget,
): Promise<Array<Buffer | undefined>> {
  const found = new Map<string, Buffer>();
  await sendPerRegion(
    connection,
    uniqueKeys(keys),
    {
      method: 'RawBatchGet',
      keyOf: identity,
      sizeOf: keyLength,
      limits: KEY_BATCH_LIMITS,
      buildRequest: (chunk) => ({ keys: chunk }),
      onResponse: (_chunk, response) => {
        throwOnPairErrors('getMany', response.pairs);
        for (const pair of response.pairs) found.set(pair.key.toString('latin1'), pair.value);
      },
    },
    budget,
  );
  return keys.map((key) => found.get(key.toString('latin1')));
}

/**
 * Writes every row in atomic mode. When a key repeats, only its last write is sent: chunks go out
 * in parallel, so sending both would make the winner random.
 */
export async function batchPut(
  connection: TikvConnection,
  writes: readonly KeyValueWrite[],
  budget: RetryBudget,
): Promise<void> {
  await sendPerRegion(
    connection,
    lastWritePerKey(writes),
    {
      method: 'RawBatchPut',
      keyOf: (write) => write.key,
      sizeOf: (write) => write.key.length + write.value.length,
      limits: PUT_BATCH_LIMITS,
      buildRequest: (chunk) => {
        const ttls = chunk.map((write) => toWireTtl(write.ttlSeconds));
        const anyTtl = ttls.some((ttl) => ttl > 0);
        return {
          pairs: chunk.map((write) => ({ key: write.key, value: write.value })),
          // Per-pair TTLs; the deprecated single `ttl` mirrors the first for pre-2021 servers.
          ttls: anyTtl ? ttls : [],
          ttl: anyTtl ? ttls[0] : 0,
          for_cas: true,
        };
      },
      onResponse: (_chunk, response) => throwOnStorageError('putMany', response.error),
    },
    budget,
  );
}

export async function batchDelete(
  connection: TikvConnection,
  keys: readonly Buffer[],
  budget: RetryBudget,
): Promise<void> {
  await sendPerRegion(
    connection,
    uniqueKeys(keys),
    {
      method: 'RawBatchDelete',
      keyOf: identity,
      sizeOf: keyLength,
      limits: KEY_BATCH_LIMITS,
      buildRequest: (chunk) => ({ keys: chunk, for_cas: true }),
      onResponse: (_chunk, response) => throwOnStorageError('deleteMany', response.error),
    },
    budget,
  );
}

function uniqueKeys(keys: readonly Buffer[]): Buffer[] {
  const byContent = new Map<string, Buffer>();
  for (const key of keys) byContent.set(key.toString('latin1'), key);
  return [...byContent.values()];
}

function lastWritePerKey(writes: readonly KeyValueWrite[]): KeyValueWrite[] {
  const byKey = new Map<string, KeyValueWrite>();
  for (const write of writes) {
    const id = write.key.toString('latin1');
    byKey.delete(id);
    byKey.set(id, write);
  }
  return [...byKey.values()];
}
