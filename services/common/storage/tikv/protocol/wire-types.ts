/**
 * TypeScript shapes of the protobuf messages as @grpc/proto-loader decodes them with
 * `{ keepCase, longs: String, bytes: Buffer, enums: Number, defaults: true }`: field names are the
 * proto's, every uint64 is a decimal string (ids exceed 2^53), absent sub-messages are null and
 * absent scalars carry their proto3 default. Requests may omit any field.
 */

/** A uint64 as it travels through proto-loader: decimal string, never a JS number. */
export type Uint64 = string;

export interface Peer {
  id: Uint64;
  store_id: Uint64;
  role?: number;
  is_witness?: boolean;
}

export interface RegionEpoch {
  conf_ver: Uint64;
  version: Uint64;
}

export interface Region {
  id: Uint64;
  start_key: Buffer;
  end_key: Buffer;
  region_epoch: RegionEpoch | null;
  peers: Peer[];
}

export const STORE_STATE_TOMBSTONE = 2;

export interface Store {
  id: Uint64;
  address: string;
  state: number;
  labels?: Array<{ key: string; value: string }>;
  version?: string;
  status_address?: string;
}

// ---- pdpb ----

export interface PdRequestHeader {
  cluster_id: Uint64;
}

export interface PdError {
  type: number;
  message: string;
}

export const PD_ERROR_REGION_NOT_FOUND = 6;

export interface PdResponseHeader {
  cluster_id: Uint64;
  error: PdError | null;
}

export interface PdMember {
  name: string;
  member_id: Uint64;
  client_urls: string[];
}

export interface GetMembersRequest {
  header?: PdRequestHeader;
}

export interface GetMembersResponse {
  header: PdResponseHeader | null;
  members: PdMember[];
  leader: PdMember | null;
}

export interface GetRegionRequest {
  header: PdRequestHeader;
  region_key: Buffer;
}

export interface GetRegionByIdRequest {
  header: PdRequestHeader;
  region_id: Uint64;
}

export interface GetRegionResponse {
  header: PdResponseHeader | null;
  region: Region | null;
  leader: Peer | null;
}

export interface GetStoreRequest {
  header: PdRequestHeader;
  store_id: Uint64;
}

export interface GetStoreResponse {
  header: PdResponseHeader | null;
  store: Store | null;
}

export interface ScanRegionsRequest {
  header: PdRequestHeader;
  start_key: Buffer;
  limit: number;
  end_key: Buffer;
}

export interface ScanRegionsResponse {
  header: PdResponseHeader | null;
  region_metas: Region[];
  leaders: Peer[];
  regions: Array<{ region: Region | null; leader: Peer | null }>;
}

// ---- errorpb ----

export interface NotLeader {
  region_id: Uint64;
  leader: Peer | null;
}

export interface KeyNotInRegion {
  key: Buffer;
  region_id: Uint64;
  start_key: Buffer;
  end_key: Buffer;
}

export interface EpochNotMatch {
  current_regions: Region[];
}

export interface ServerIsBusy {
  reason: string;
  backoff_ms: Uint64;
  estimated_wait_ms: number;
}

export interface StoreNotMatch {
  request_store_id: Uint64;
  actual_store_id: Uint64;
}

/** Sub-messages whose only content (if any) is a region id or a reason. */
export interface RegionScopedError {
  region_id?: Uint64;
  reason?: string;
}

export interface RegionError {
  message: string;
  not_leader?: NotLeader | null;
  region_not_found?: RegionScopedError | null;
  key_not_in_region?: KeyNotInRegion | null;
  epoch_not_match?: EpochNotMatch | null;
  server_is_busy?: ServerIsBusy | null;
  stale_command?: object | null;
  store_not_match?: StoreNotMatch | null;
  raft_entry_too_large?: RegionScopedError | null;
  max_timestamp_not_synced?: object | null;
  read_index_not_ready?: RegionScopedError | null;
  proposal_in_merging_mode?: RegionScopedError | null;
  region_not_initialized?: RegionScopedError | null;
  disk_full?: { store_id: Uint64[]; reason: string } | null;
  RecoveryInProgress?: RegionScopedError | null;
  FlashbackInProgress?: RegionScopedError | null;
  FlashbackNotPrepared?: RegionScopedError | null;
  is_witness?: RegionScopedError | null;
  mismatch_peer_id?: { request_peer_id: Uint64; store_peer_id: Uint64 } | null;
}

// ---- kvrpcpb ----

export interface RequestContext {
  region_id: Uint64;
  region_epoch: RegionEpoch;
  peer: Peer;
  cluster_id?: Uint64;
  api_version?: number;
  is_retry_request?: boolean;
}

export interface KeyError {
  retryable: string;
  abort: string;
}

export interface KvPair {
  error?: KeyError | null;
  key: Buffer;
  value: Buffer;
}

/** Every raw request starts with the routing context. */
export interface RawRequest {
  context?: RequestContext;
}

/** Every raw response may carry a region error (retry elsewhere) … */
export interface RawResponse {
  region_error: RegionError | null;
}

/** … and most carry a storage error string (final, not retryable). */
export interface RawResponseWithError extends RawResponse {
  error: string;
}

export interface RawGetRequest extends RawRequest {
  key: Buffer;
}
export interface RawGetResponse extends RawResponseWithError {
  value: Buffer;
  not_found: boolean;
}

export interface RawBatchGetRequest extends RawRequest {
  keys: Buffer[];
}
export interface RawBatchGetResponse extends RawResponse {
  pairs: KvPair[];
}

export interface RawPutRequest extends RawRequest {
  key: Buffer;
  value: Buffer;
  ttl?: number;
  for_cas: boolean;
}
export type RawPutResponse = RawResponseWithError;

export interface RawBatchPutRequest extends RawRequest {
  pairs: Array<{ key: Buffer; value: Buffer }>;
  /** Deprecated single TTL, filled with ttls[0] for servers older than the per-pair field. */
  ttl?: number;
  ttls?: number[];
  for_cas: boolean;
}
export type RawBatchPutResponse = RawResponseWithError;

export interface RawDeleteRequest extends RawRequest {
  key: Buffer;
  for_cas: boolean;
}
export type RawDeleteResponse = RawResponseWithError;

export interface RawBatchDeleteRequest extends RawRequest {
  keys: Buffer[];
  for_cas: boolean;
}
export type RawBatchDeleteResponse = RawResponseWithError;

export interface RawScanRequest extends RawRequest {
  start_key: Buffer;
  end_key: Buffer;
  limit: number;
  key_only?: boolean;
  reverse?: boolean;
}
export interface RawScanResponse extends RawResponse {
  kvs: KvPair[];
}

/** Deletes [start_key, end_key) inside one region; `end_key` must not pass the region's end. */
export interface RawDeleteRangeRequest extends RawRequest {
  start_key: Buffer;
  end_key: Buffer;
}
export type RawDeleteRangeResponse = RawResponseWithError;

export interface RawGetKeyTtlRequest extends RawRequest {
  key: Buffer;
}
export interface RawGetKeyTtlResponse extends RawResponseWithError {
  ttl: Uint64;
  not_found: boolean;
}

export interface RawCasRequest extends RawRequest {
  key: Buffer;
  value: Buffer;
  previous_not_exist: boolean;
  previous_value: Buffer;
  ttl?: number;
}
export interface RawCasResponse extends RawResponseWithError {
  succeed: boolean;
  previous_not_exist: boolean;
  previous_value: Buffer;
}

/** The tikvpb.Tikv methods we call, with their request and response shapes (a type alias, not
 * an interface, so that it satisfies MethodTable's index signature). */
export type TikvRawMethods = {
  RawGet: [RawGetRequest, RawGetResponse];
  RawBatchGet: [RawBatchGetRequest, RawBatchGetResponse];
  RawPut: [RawPutRequest, RawPutResponse];
  RawBatchPut: [RawBatchPutRequest, RawBatchPutResponse];
  RawDelete: [RawDeleteRequest, RawDeleteResponse];
  RawBatchDelete: [RawBatchDeleteRequest, RawBatchDeleteResponse];
  RawScan: [RawScanRequest, RawScanResponse];
  RawDeleteRange: [RawDeleteRangeRequest, RawDeleteRangeResponse];
  RawGetKeyTTL: [RawGetKeyTtlRequest, RawGetKeyTtlResponse];
  RawCompareAndSwap: [RawCasRequest, RawCasResponse];
};

export type TikvMethodName = keyof TikvRawMethods;

/** The pdpb.PD methods we call. */
export type PdMethods = {
  GetMembers: [GetMembersRequest, GetMembersResponse];
  GetRegion: [GetRegionRequest, GetRegionResponse];
  GetRegionByID: [GetRegionByIdRequest, GetRegionResponse];
  ScanRegions: [ScanRegionsRequest, ScanRegionsResponse];
  GetStore: [GetStoreRequest, GetStoreResponse];
};

export type PdMethodName = keyof PdMethods;

/** One request on PD's bidi `Tso` stream: `count` timestamps at once. */
export interface TsoRequest {
  header: PdRequestHeader | null;
  count: number;
  dc_location: string;
}

/** int64 fields travel as decimal strings (`longs: String`), like the uint64 ids. */
export interface PdTimestamp {
  physical: string;
  logical: string;
  suffix_bits: number;
}

/** `timestamp` is the last of the `count` allocated; the first is logical - count + 1. */
export interface TsoResponse {
  header: PdResponseHeader | null;
  count: number;
  timestamp: PdTimestamp | null;
}

// ---- grpc.health.v1 ----

export const HEALTH_STATUS = {
  UNKNOWN: 0,
  SERVING: 1,
  NOT_SERVING: 2,
  SERVICE_UNKNOWN: 3,
} as const;

export interface HealthCheckRequest {
  service: string;
}

export interface HealthCheckResponse {
  status: number;
}

export type HealthMethods = {
  Check: [HealthCheckRequest, HealthCheckResponse];
};

/** Methods TiKV accepts inside the BatchCommands stream (CAS and GetKeyTTL are unary only). */
export const BATCHABLE_METHODS = [
  'RawGet',
  'RawBatchGet',
  'RawPut',
  'RawBatchPut',
  'RawDelete',
  'RawBatchDelete',
  'RawScan',
  'RawDeleteRange',
] as const;

export type BatchableMethodName = (typeof BATCHABLE_METHODS)[number];

/** One slot of a BatchCommands message: exactly one field (the method name) is set. */
export type BatchCommand = { [K in BatchableMethodName]?: TikvRawMethods[K][0] | null };
export type BatchCommandResult = { [K in BatchableMethodName]?: TikvRawMethods[K][1] | null };

export interface BatchCommandsRequest {
  requests: BatchCommand[];
  request_ids: Array<number | Uint64>;
}

export interface BatchCommandsResponse {
  responses: BatchCommandResult[];
  request_ids: Uint64[];
}
