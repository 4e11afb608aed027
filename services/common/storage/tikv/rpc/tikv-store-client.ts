import * as grpc from '@grpc/grpc-js';
import {
  BATCHABLE_METHODS,
  BatchableMethodName,
  TikvMethodName,
  TikvRawMethods,
} from '../protocol/wire-types';
import { BatchCommandsChannel } from './batch-commands-channel';
import { DeadlineSweeper } from './deadline-sweeper';
import {
  ChannelSettings,
  ClientPool,
  DEADLINE_RESOLUTION_MS,
  grpcChannelOptions,
} from './grpc-client-pool';
import { TypedGrpcClient } from './typed-grpc-client';

const BATCHABLE: ReadonlySet<string> = new Set(BATCHABLE_METHODS);

function isBatchable(method: TikvMethodName): method is BatchableMethodName {
  return BATCHABLE.has(method);
}

/**
 * Everything this client sends to one TiKV store, over one gRPC channel: raw KV commands go through
 * the BatchCommands stream when enabled, the rest (compare-and-swap) as unary calls.
 */
export class TikvStoreClient {
  private readonly unary: TypedGrpcClient<TikvRawMethods>;
  private readonly batch: BatchCommandsChannel | undefined;

  constructor(
    readonly address: string,
    client: grpc.Client,
    deadlines: DeadlineSweeper,
    useBatchCommands: boolean,
  ) {
    this.unary = new TypedGrpcClient<TikvRawMethods>(address, client, deadlines);
    this.batch = useBatchCommands
      ? new BatchCommandsChannel(client, deadlines, (method, request, timeoutMs) =>
          this.unary.call(method, request as TikvRawMethods[typeof method][0], timeoutMs),
        )
      : undefined;
  }

  call<K extends TikvMethodName>(
    method: K,
    request: TikvRawMethods[K][0],
    timeoutMs: number,
  ): Promise<TikvRawMethods[K][1]> {
    const batch = this.batch;
    if (batch && !batch.unsupported && isBatchable(method)) {
      return batch.call(method, request as TikvRawMethods[typeof method][0], timeoutMs) as Promise<
        TikvRawMethods[K][1]
      >;
    }
    return this.unary.call(method, request, timeoutMs);
  }

  close(): void {
    this.batch?.close();
    this.unary.close();
  }
}

export function tikvStoreClientPool(
  TikvClientConstructor: grpc.ServiceClientConstructor,
  settings: ChannelSettings,
  useBatchCommands: boolean,
): ClientPool<TikvStoreClient> {
  const deadlines = new DeadlineSweeper(DEADLINE_RESOLUTION_MS);
  const options = grpcChannelOptions(settings);
  return new ClientPool(
    (address) =>
      new TikvStoreClient(
        address,
        new TikvClientConstructor(address, grpc.credentials.createInsecure(), options),
        deadlines,
        useBatchCommands,
      ),
    () => deadlines.stop(),
  );
}
