/** One request the double received, for assertions like "this batch touched two regions". */
export interface DoubleRequestRecord {
  /** `pd:<member index>` or `store:<store id>`. */
  target: string;
  method: string;
  regionId?: string;
  /** `ok`, the region error's field name (e.g. `not_leader`), or `grpc:<CODE>`. */
  outcome?: string;
}

/** Called before a store handles a request; tests use it to change the topology mid-operation. */
export type StoreRequestHook = (event: {
  storeId: string;
  method: string;
  request: unknown;
}) => void;
