import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { resolveProtoDirectory } from './proto-directory';

/**
 * Decoding options shared by the client and the test double. `longs: String` keeps every uint64
 * (cluster id, region/peer/store ids) exact: cluster ids are random 64-bit values above 2^53.
 * `defaults: true` makes absent proto3 booleans read as false (`not_found`, `succeed`, …).
 */
const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: Number,
  bytes: Buffer,
  defaults: true,
  oneofs: false,
};

export interface TikvProtocol {
  /** Client constructor for `/pdpb.PD/*`. */
  PdClient: grpc.ServiceClientConstructor;
  /** Client constructor for `/tikvpb.Tikv/*`. */
  TikvClient: grpc.ServiceClientConstructor;
  pdService: grpc.ServiceDefinition;
  tikvService: grpc.ServiceDefinition;
  /** Client constructor for `/grpc.health.v1.Health/*` (served by stores and PD members). */
  HealthClient: grpc.ServiceClientConstructor;
  healthService: grpc.ServiceDefinition;
}

let loaded: TikvProtocol | undefined;

/** Parses the .proto files once per process; every channel reuses the same definitions. */
export function loadTikvProtocol(): TikvProtocol {
  if (loaded) return loaded;
  const directory = resolveProtoDirectory();
  const definition = protoLoader.loadSync(
    ['pdpb.proto', 'tikvpb.proto', 'health.proto'].map((file) => path.join(directory, file)),
    { ...LOADER_OPTIONS, includeDirs: [directory] },
  );
  const root = grpc.loadPackageDefinition(definition) as unknown as {
    pdpb: { PD: grpc.ServiceClientConstructor };
    tikvpb: { Tikv: grpc.ServiceClientConstructor };
    grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } };
  };
  const health = root.grpc.health.v1.Health;
  loaded = {
    PdClient: root.pdpb.PD,
    TikvClient: root.tikvpb.Tikv,
    pdService: root.pdpb.PD.service,
    tikvService: root.tikvpb.Tikv.service,
    HealthClient: health,
    healthService: health.service,
  };
  return loaded;
}
