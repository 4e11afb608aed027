import * as grpc from '@grpc/grpc-js';
import { DeadlineSweeper } from './deadline-sweeper';
import { MethodTable, TypedGrpcClient } from './typed-grpc-client';

/** How often in-flight calls are checked against their deadline. */
export const DEADLINE_RESOLUTION_MS = 25;

export interface ChannelSettings {
  /** grpc-js defaults to 4 MiB; TiKV may answer with up to 10 MiB (server.max-grpc-send-msg-len). */
  maxReceiveMessageBytes: number;
}

export function grpcChannelOptions(settings: ChannelSettings): grpc.ChannelOptions {
  return {
    'grpc.max_receive_message_length': settings.maxReceiveMessageBytes,
    'grpc.max_send_message_length': settings.maxReceiveMessageBytes,
    // Channelz bookkeeping costs per call and nothing here reads it.
    'grpc.enable_channelz': 0,
  };
}

export interface Closable {
  close(): void;
}

/**
 * One client (one gRPC channel) per address, created on first use and reused for every later call.
 * Dropping an address closes its channel, which is how transport failures and StoreNotMatch force
 * a fresh connection on the next attempt.
 */
export class ClientPool<T extends Closable> {
  private readonly clients = new Map<string, T>();
  private closed = false;

  constructor(
    private readonly create: (address: string) => T,
    private readonly onClose: () => void = () => undefined,
  ) {}

  get(address: string): T {
    const existing = this.clients.get(address);
    if (existing) return existing;
    if (this.closed) throw new Error(`gRPC client pool is closed (requested ${address})`);
    const created = this.create(address);
    this.clients.set(address, created);
    return created;
  }

  drop(address: string): void {
    const client = this.clients.get(address);
    if (!client) return;
    this.clients.delete(address);
    client.close();
  }

  closeAll(): void {
    this.closed = true;
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
    this.onClose();
  }
}

/** A pool of plain unary clients (used for PD). */
export function unaryClientPool<M extends MethodTable>(
  ClientConstructor: grpc.ServiceClientConstructor,
  settings: ChannelSettings,
): ClientPool<TypedGrpcClient<M>> {
  const deadlines = new DeadlineSweeper(DEADLINE_RESOLUTION_MS);
  const options = grpcChannelOptions(settings);
  return new ClientPool(
    (address) =>
      new TypedGrpcClient<M>(
        address,
        new ClientConstructor(address, grpc.credentials.createInsecure(), options),
        deadlines,
      ),
    () => deadlines.stop(),
  );
}
