import * as grpc from '@grpc/grpc-js';
import { loadTikvProtocol } from '../protocol/load-protocol';
import {
  BATCHABLE_METHODS,
  BatchCommandResult,
  BatchCommandsRequest,
  BatchCommandsResponse,
  RegionError,
  RequestContext,
  TikvMethodName,
  TikvRawMethods,
} from '../protocol/wire-types';
import { ClusterTopology } from './cluster-topology';
import { DoubleRequestRecord, StoreRequestHook } from './double-request-log';
import { RawKvEngine } from './raw-kv-engine';
import { healthServiceHandlers } from './health-service';
import { RequestScope, checkRegionRequest } from './region-request-checks';
import { TimestampOracle } from './timestamp-oracle';

/** State every store server of one double shares. */
export interface SharedClusterState {
  clusterId: string;
  topology: ClusterTopology;
  engine: RawKvEngine;
  requestLog: DoubleRequestRecord[];
  hooks: Set<StoreRequestHook>;
  /** PD's timestamps, shared by every member so that failover keeps them increasing. */
  timestampOracle: TimestampOracle;
}

type Request<K extends TikvMethodName> = TikvRawMethods[K][0];

const SCOPE_OF: { [K in TikvMethodName]: (request: Request<K>) => RequestScope } = {
  RawGet: (request) => ({ keys: [request.key] }),
  RawBatchGet: (request) => ({ keys: request.keys }),
  RawPut: (request) => ({ keys: [request.key] }),
  RawBatchPut: (request) => ({ keys: request.pairs.map((pair) => pair.key) }),
  RawDelete: (request) => ({ keys: [request.key] }),
  RawBatchDelete: (request) => ({ keys: request.keys }),
  RawScan: (request) => ({ keys: [request.start_key] }),
  RawDeleteRange: (request) => ({ keys: [request.start_key], rangeEnd: request.end_key }),
  RawGetKeyTTL: (request) => ({ keys: [request.key] }),
  RawCompareAndSwap: (request) => ({ keys: [request.key] }),
};

/** The names the store's health service answers SERVING for (besides the server as a whole). */
const HEALTH_SERVICE_NAMES = ['tikvpb.Tikv'];

/** What one request produced: a response, a gRPC error status, or nothing (store crashed). */
type Outcome =
  | { kind: 'response'; response: unknown }
  | { kind: 'status'; status: Partial<grpc.StatusObject> }
  | { kind: 'crashed' }
  | { kind: 'unanswered' };

/**
 * One simulated TiKV store: a gRPC server on 127.0.0.1 answering the `tikvpb.Tikv` raw methods,
 * both as unary calls and inside the BatchCommands stream, and the gRPC health service. Which store
 * id it is can change (`servingStoreId`), to simulate an address reused by another store.
 */
export class StoreServer {
  /** Answer ServerIsBusy to this many upcoming requests. */
  busyRemaining = 0;
  /** Region errors answered (one per request, in order) before normal processing resumes. */
  readonly injectedErrors: RegionError[] = [];
  /** Never answer this many upcoming requests (a hung store: only client deadlines help). */
  unresponsiveRemaining = 0;
  /** Next request of this method is applied, then the server dies without answering. */
  crashAfterApplying: string | undefined;
  address = '';
  private server: grpc.Server | undefined;

  constructor(
    private readonly shared: SharedClusterState,
    public servingStoreId: string,
    private readonly batchCommandsEnabled: boolean,
  ) {}

  async start(maxMessageBytes: number): Promise<string> {
    // Channelz stays on: grpc-js 1.14 only tracks sessions for forceShutdown() when channelz is
    // enabled, and `stopStore` must really cut existing connections.
    const server = new grpc.Server({
      'grpc.max_receive_message_length': maxMessageBytes,
      'grpc.max_send_message_length': maxMessageBytes,
    });
    // Without a BatchCommands handler grpc-js answers UNIMPLEMENTED, like a server that lacks it.
    const handlers: grpc.UntypedServiceImplementation = {};
    if (this.batchCommandsEnabled) {
      handlers.BatchCommands = (
        call: grpc.ServerDuplexStream<BatchCommandsRequest, BatchCommandsResponse>,
      ) => this.serveBatchCommands(call);
    }
    for (const method of Object.keys(SCOPE_OF) as TikvMethodName[]) {
      handlers[method] = (
        call: grpc.ServerUnaryCall<unknown, unknown>,
        callback: grpc.sendUnaryData<unknown>,
      ) => {
        const outcome = this.process(method, call.request as Request<typeof method>);
        if (outcome.kind === 'response') callback(null, outcome.response);
        else if (outcome.kind === 'status') callback(outcome.status);
      };
    }
    const protocol = loadTikvProtocol();
    server.addService(protocol.tikvService, handlers);
    server.addService(
      protocol.healthService,
      healthServiceHandlers(HEALTH_SERVICE_NAMES, (method) =>
        this.shared.requestLog.push({
          target: `store:${this.servingStoreId}`,
          method: `Health/${method}`,
          outcome: 'ok',
        }),
      ),
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    this.server = server;
    this.address = `127.0.0.1:${port}`;
    return this.address;
  }

  get isRunning(): boolean {
    return this.server !== undefined;
  }

  stop(): void {
    this.server?.forceShutdown();
    this.server = undefined;
  }

  /**
   * Answers each incoming message with one message carrying a response per request. A request
   * whose command the double does not serve (a transactional command, one newer than these protos,
   * or none at all) gets an empty response under its id, and the stream goes on: that is what TiKV
   * does with a command it cannot decode, and one odd request must not fail every other request
   * multiplexed on the stream.
   */
  private serveBatchCommands(
    call: grpc.ServerDuplexStream<BatchCommandsRequest, BatchCommandsResponse>,
  ): void {
    call.on('data', (message: BatchCommandsRequest) => {
      const responses: BatchCommandResult[] = [];
      const answeredIds: string[] = [];
      for (const [index, command] of message.requests.entries()) {
        const method = BATCHABLE_METHODS.find((candidate) => command[candidate]);
        if (!method) {
          this.shared.requestLog.push({
            target: `store:${this.servingStoreId}`,
            method: 'BatchCommands/unknown',
            outcome: 'answered-empty',
          });
          responses.push({});
          answeredIds.push(String(message.request_ids[index]));
          continue;
        }
        const outcome = this.process(method, command[method] as Request<typeof method>);
        if (outcome.kind === 'crashed') return;
        if (outcome.kind === 'unanswered') continue;
        if (outcome.kind === 'status') {
          call.emit('error', outcome.status);
          return;
        }
        responses.push({ [method]: outcome.response });
        answeredIds.push(String(message.request_ids[index]));
      }
      if (answeredIds.length > 0) call.write({ responses, request_ids: answeredIds });
    });
    call.on('end', () => call.end());
  }

  private process<K extends TikvMethodName>(method: K, request: Request<K>): Outcome {
    const storeId = this.servingStoreId;
    const context = request.context as RequestContext | null | undefined;
    const record: DoubleRequestRecord = {
      target: `store:${storeId}`,
      method,
      regionId: context?.region_id,
    };
    this.shared.requestLog.push(record);
    for (const hook of this.shared.hooks) hook({ storeId, method, request });
    if (this.unresponsiveRemaining > 0) {
      this.unresponsiveRemaining -= 1;
      record.outcome = 'unanswered';
      return { kind: 'unanswered' };
    }

    const requestCluster = context?.cluster_id ?? '0';
    if (requestCluster !== '0' && requestCluster !== this.shared.clusterId) {
      record.outcome = 'grpc:INVALID_ARGUMENT';
      const details = 'the cluster id of the request does not match the TiKV cluster';
      return { kind: 'status', status: { code: grpc.status.INVALID_ARGUMENT, details } };
    }

    const regionError =
      this.nextInjectedError() ??
      checkRegionRequest(this.shared.topology, storeId, context, SCOPE_OF[method](request));
    if (regionError) {
      record.outcome = regionErrorKind(regionError);
      return { kind: 'response', response: { region_error: regionError } };
    }
    const region = this.shared.topology.regionById(context!.region_id)!;
    try {
      const response = this.shared.engine.execute(method, request, region);
      if (this.crashAfterApplying === method) {
        this.crashAfterApplying = undefined;
        record.outcome = 'applied-then-crashed';
        this.stop();
        return { kind: 'crashed' };
      }
      record.outcome = 'ok';
      return { kind: 'response', response };
    } catch (error) {
      record.outcome = 'grpc:INTERNAL';
      return { kind: 'status', status: { code: grpc.status.INTERNAL, details: String(error) } };
    }
  }

  private nextInjectedError(): RegionError | undefined {
    if (this.busyRemaining > 0) {
      this.busyRemaining -= 1;
      return {
        message: 'server is busy',
        server_is_busy: { reason: 'scheduler is busy', backoff_ms: '0', estimated_wait_ms: 0 },
      };
    }
    return this.injectedErrors.shift();
  }
}

function regionErrorKind(error: RegionError): string {
  const kind = Object.keys(error).find(
    (field) => field !== 'message' && error[field as keyof RegionError],
  );
  return kind ?? 'message_only';
}
