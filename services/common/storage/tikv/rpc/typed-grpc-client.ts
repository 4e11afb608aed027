import * as grpc from '@grpc/grpc-js';
import { DeadlineSweeper, deadlineExceededError } from './deadline-sweeper';

/** Maps method names to [request, response] pairs, e.g. `TikvRawMethods`. */
export type MethodTable = { [method: string]: [unknown, unknown] };

type UnaryMethod = (
  request: unknown,
  callback: (error: grpc.ServiceError | null, response: unknown) => void,
) => grpc.ClientUnaryCall;

/**
 * A typed, promise-returning face on a proto-loader generated client. One instance wraps one
 * channel; callers keep it (see GrpcClientPool) so the hot path never constructs clients.
 */
export class TypedGrpcClient<M extends MethodTable> {
  private readonly methods: Record<string, UnaryMethod>;

  constructor(
    readonly address: string,
    private readonly client: grpc.Client,
    private readonly deadlines: DeadlineSweeper,
  ) {
    this.methods = client as unknown as Record<string, UnaryMethod>;
  }

  call<K extends keyof M & string>(
    method: K,
    request: M[K][0],
    timeoutMs: number,
  ): Promise<M[K][1]> {
    return new Promise((resolve, reject) => {
      const call = this.methods[method].call(this.client, request, (error, response) => {
        this.deadlines.untrack(tracked);
        if (error) reject(error);
        else resolve(response as M[K][1]);
      });
      // Settling first makes the CANCELLED callback that follows `cancel()` a no-op.
      const tracked = this.deadlines.track(timeoutMs, () => {
        reject(deadlineExceededError(method, timeoutMs));
        call.cancel();
      });
    });
  }

  close(): void {
    this.client.close();
  }
}
