import * as grpc from '@grpc/grpc-js';
import {
  BatchCommand,
  BatchCommandsRequest,
  BatchCommandsResponse,
  BatchableMethodName,
  TikvRawMethods,
} from '../protocol/wire-types';
import { DeadlineSweeper, deadlineExceededError } from './deadline-sweeper';
import { isServiceError } from './grpc-status';

/** Sends one request as a plain unary call (for servers without BatchCommands). */
export type UnaryFallback = (
  method: BatchableMethodName,
  request: unknown,
  timeoutMs: number,
) => Promise<unknown>;

interface PendingCommand {
  method: BatchableMethodName;
  request: unknown;
  timeoutMs: number;
  resolve: (response: unknown) => void;
  reject: (error: unknown) => void;
  untrack: () => void;
}

type Stream = grpc.ClientDuplexStream<BatchCommandsRequest, BatchCommandsResponse>;

/**
 * TiKV's BatchCommands stream, as client-go uses it for raw KV: one long-lived bidi stream per
 * store carrying many requests, matched to responses by request id.
 *
 * Why: on loopback a grpc-js unary call costs ~0.2 ms of per-call HTTP/2 stream setup, a message on
 * an open stream ~0.03 ms. Requests issued in the same tick are coalesced into one message.
 * If the stream breaks, every request in flight on it fails with the stream's (transient) error;
 * the request sender treats that like any transport failure (re-route and retry within budget).
 */
export class BatchCommandsChannel {
  private stream: Stream | undefined;
  private readonly pending = new Map<string, PendingCommand>();
  private queuedCommands: BatchCommand[] = [];
  private queuedIds: number[] = [];
  private flushScheduled = false;
  private nextId = 0;
  /** Set when the server does not implement BatchCommands; callers then use unary calls. */
  unsupported = false;

  constructor(
    private readonly client: grpc.Client,
    private readonly deadlines: DeadlineSweeper,
    private readonly unaryFallback: UnaryFallback,
  ) {}

  call<K extends BatchableMethodName>(
    method: K,
    request: TikvRawMethods[K][0],
    timeoutMs: number,
  ): Promise<TikvRawMethods[K][1]> {
    return new Promise((resolve, reject) => {
      this.nextId += 1;
      const numericId = this.nextId;
      const id = String(numericId);
      const tracked = this.deadlines.track(timeoutMs, () => {
        this.pending.delete(id);
        reject(deadlineExceededError(method, timeoutMs));
      });
      this.pending.set(id, {
        method,
        request,
        timeoutMs,
        resolve: resolve as (response: unknown) => void,
        reject,
        untrack: () => this.deadlines.untrack(tracked),
      });
      this.queuedCommands.push({ [method]: request });
      this.queuedIds.push(numericId);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        queueMicrotask(() => this.flush());
      }
    });
  }

  close(): void {
    const stream = this.stream;
    this.stream = undefined;
    stream?.cancel();
    this.failAll(unavailable('BatchCommands channel closed'));
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.queuedIds.length === 0) return;
    const message: BatchCommandsRequest = {
      requests: this.queuedCommands,
      request_ids: this.queuedIds,
    };
    this.queuedCommands = [];
    this.queuedIds = [];
    (this.stream ?? this.open()).write(message);
  }

  private open(): Stream {
    const stream = (
      this.client as unknown as { BatchCommands(options: grpc.CallOptions): Stream }
    ).BatchCommands({});
    stream.on('data', (message: BatchCommandsResponse) => this.deliver(message));
    stream.on('error', (error: unknown) => this.onBroken(stream, error));
    stream.on('end', () => this.onBroken(stream, unavailable('BatchCommands stream ended')));
    this.stream = stream;
    return stream;
  }

  private deliver(message: BatchCommandsResponse): void {
    message.request_ids.forEach((id, index) => {
      const command = this.pending.get(id);
      if (!command) return; // already timed out
      this.pending.delete(id);
      command.untrack();
      const response = message.responses[index]?.[command.method];
      if (response) command.resolve(response);
      else command.reject(unavailable(`BatchCommands response ${id} lacks ${command.method}`));
    });
  }

  private onBroken(stream: Stream, error: unknown): void {
    if (this.stream !== stream) return;
    this.stream = undefined;
    if (isServiceError(error) && error.code === grpc.status.UNIMPLEMENTED) {
      this.unsupported = true;
      this.resendAsUnary();
      return;
    }
    this.failAll(error);
  }

  /** Nothing was executed (the method does not exist there): re-sending is safe. */
  private resendAsUnary(): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const command of waiting) {
      command.untrack();
      this.unaryFallback(command.method, command.request, command.timeoutMs).then(
        command.resolve,
        command.reject,
      );
    }
  }

  private failAll(error: unknown): void {
    const failed = [...this.pending.values()];
    this.pending.clear();
    for (const command of failed) {
      command.untrack();
      command.reject(error);
    }
  }
}

function unavailable(details: string): grpc.ServiceError {
  return Object.assign(new Error(`14 UNAVAILABLE: ${details}`), {
    code: grpc.status.UNAVAILABLE,
    details,
    metadata: new grpc.Metadata(),
  });
}
