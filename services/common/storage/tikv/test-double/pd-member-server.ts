import * as grpc from '@grpc/grpc-js';
import { loadTikvProtocol } from '../protocol/load-protocol';
import {
  GetMembersResponse,
  GetRegionResponse,
  GetStoreResponse,
  PD_ERROR_REGION_NOT_FOUND,
  PdMember,
  PdMethodName,
  PdMethods,
  PdRequestHeader,
  PdResponseHeader,
  ScanRegionsResponse,
  TsoRequest,
  TsoResponse,
} from '../protocol/wire-types';
import { DoubleRegion, regionHasKey } from './cluster-topology';
import { healthServiceHandlers } from './health-service';
import { SharedClusterState } from './store-server';

const PD_ERROR_UNKNOWN = 1;

/** Which PD members exist and which one leads (undefined = election in progress). */
export interface PdMembershipState {
  members: PdMemberServer[];
  leaderIndex: number | undefined;
}

type Handler<K extends PdMethodName> = (request: PdMethods[K][0]) => PdMethods[K][1];

/**
 * One simulated PD member. Any member answers GetMembers (that is how clients find the leader) and
 * the gRPC health service; other calls are served only by the leader — followers answer
 * UNAVAILABLE "not leader", like PD without follower handling — and require the right cluster id
 * in the header. The leader also serves the `Tso` stream from the cluster's one timestamp oracle.
 */
export class PdMemberServer {
  address = '';
  private server: grpc.Server | undefined;

  constructor(
    private readonly shared: SharedClusterState,
    private readonly membership: PdMembershipState,
    readonly index: number,
  ) {}

  get isRunning(): boolean {
    return this.server !== undefined;
  }

  async start(): Promise<string> {
    // Channelz stays on so that forceShutdown() also cuts open connections (see store-server.ts).
    const server = new grpc.Server();
    const handlers: grpc.UntypedServiceImplementation = {};
    for (const [method, handler] of Object.entries(this.handlers)) {
      handlers[method] = (
        call: grpc.ServerUnaryCall<unknown, unknown>,
        callback: grpc.sendUnaryData<unknown>,
      ) =>
        this.dispatch(
          method as PdMethodName,
          handler as Handler<PdMethodName>,
          call.request,
          callback,
        );
    }
    handlers.Tso = (call: grpc.ServerDuplexStream<TsoRequest, TsoResponse>) => this.serveTso(call);
    const protocol = loadTikvProtocol();
    server.addService(protocol.pdService, handlers);
    server.addService(
      protocol.healthService,
      healthServiceHandlers(['pdpb.PD'], (method) =>
        this.shared.requestLog.push({ target: `pd:${this.index}`, method: `Health/${method}` }),
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

  stop(): void {
    this.server?.forceShutdown();
    this.server = undefined;
  }

  describe(): PdMember {
    return {
      name: `pd-${this.index}`,
      member_id: String(1000 + this.index),
      client_urls: [`http://${this.address}`],
    };
  }

  private dispatch(
    method: PdMethodName,
    handler: Handler<PdMethodName>,
    request: unknown,
    callback: grpc.sendUnaryData<unknown>,
  ): void {
    this.shared.requestLog.push({ target: `pd:${this.index}`, method });
    const refusal =
      method === 'GetMembers'
        ? undefined
        : this.refuseLeaderRequest((request as { header?: PdRequestHeader | null }).header);
    if (refusal) callback(refusal);
    else callback(null, handler(request as PdMethods[PdMethodName][0]));
  }

  /** Followers do not serve; the leader checks the cluster id. */
  private refuseLeaderRequest(
    header: PdRequestHeader | null | undefined,
  ): Partial<grpc.StatusObject> | undefined {
    if (this.membership.leaderIndex !== this.index) {
      return { code: grpc.status.UNAVAILABLE, details: 'not leader' };
    }
    const got = header?.cluster_id ?? '0';
    if (got !== this.shared.clusterId) {
      return {
        code: grpc.status.FAILED_PRECONDITION,
        details: `mismatch cluster id, need ${this.shared.clusterId} but got ${got}`,
      };
    }
    return undefined;
  }

  /**
   * PD's bidi timestamp stream: one response per request, carrying the last of `count` fresh
   * timestamps. A refused request ends the stream with its status, as PD does.
   */
  private serveTso(call: grpc.ServerDuplexStream<TsoRequest, TsoResponse>): void {
    call.on('data', (request: TsoRequest) => {
      this.shared.requestLog.push({ target: `pd:${this.index}`, method: 'Tso' });
      const refusal = this.refuseLeaderRequest(request.header);
      if (refusal) {
        call.emit('error', refusal);
        return;
      }
      if (request.count === 0) {
        call.emit('error', {
          code: grpc.status.UNKNOWN,
          details: 'generate timestamp failed, tso count should be positive',
        });
        return;
      }
      const { physical, logical } = this.shared.timestampOracle.allocate(request.count);
      call.write({
        header: this.header(),
        count: request.count,
        timestamp: { physical: String(physical), logical: String(logical), suffix_bits: 0 },
      });
    });
    call.on('end', () => call.end());
  }

  private header(errorType = 0, message = ''): PdResponseHeader {
    return {
      cluster_id: this.shared.clusterId,
      error: errorType === 0 ? null : { type: errorType, message },
    };
  }

  private regionAnswer(region: DoubleRegion | undefined): GetRegionResponse {
    if (!region)
      return {
        header: this.header(PD_ERROR_REGION_NOT_FOUND, 'region not found'),
        region: null,
        leader: null,
      };
    const { topology } = this.shared;
    return {
      header: this.header(),
      region: topology.toWireRegion(region),
      leader: topology.leaderPeer(region),
    };
  }

  private readonly handlers: { [K in PdMethodName]: Handler<K> } = {
    GetMembers: (): GetMembersResponse => {
      const { members, leaderIndex } = this.membership;
      return {
        header: this.header(),
        members: members.filter((member) => member.isRunning).map((member) => member.describe()),
        leader: leaderIndex === undefined ? null : members[leaderIndex].describe(),
      };
    },
    GetRegion: (request) =>
      this.regionAnswer(
        this.shared.topology.allRegions().find((r) => regionHasKey(r, request.region_key)),
      ),
    GetRegionByID: (request) =>
      this.regionAnswer(this.shared.topology.regionById(request.region_id)),
    ScanRegions: (request): ScanRegionsResponse => {
      const { topology } = this.shared;
      const limit = request.limit > 0 ? request.limit : Number.POSITIVE_INFINITY;
      const regions = topology
        .allRegions()
        .filter(
          (r) =>
            (r.endKey.length === 0 || Buffer.compare(r.endKey, request.start_key) > 0) &&
            (request.end_key.length === 0 || Buffer.compare(r.startKey, request.end_key) < 0),
        )
        .slice(0, limit);
      return {
        header: this.header(),
        region_metas: [],
        leaders: [],
        regions: regions.map((r) => ({
          region: topology.toWireRegion(r),
          leader: topology.leaderPeer(r),
        })),
      };
    },
    GetStore: (request): GetStoreResponse => {
      const store = this.shared.topology.storeById(request.store_id);
      if (!store) {
        return {
          header: this.header(PD_ERROR_UNKNOWN, `invalid store ID ${request.store_id}, not found`),
          store: null,
        };
      }
      return { header: this.header(), store: { id: store.id, address: store.address, state: 0 } };
    },
  };
}
