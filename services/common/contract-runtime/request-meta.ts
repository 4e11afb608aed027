import type { Logger } from 'pino';
import type { CallerIdentity } from './caller-identity';

/** What a handler learns about the request besides its typed input. */
export interface RequestMeta {
  /** From X-Request-Id when the caller sent one, else generated; echoed in the answer. */
  requestId: string;
  /** Null only for operations without security. */
  caller: CallerIdentity | null;
  /** A child logger bound to the request id and operation (made when first read). */
  readonly log: Logger;
}

/**
 * A request's meta whose child logger is made only when something logs with it. Most requests log
 * nothing of their own (the request line is pino-http's), and a pino child serializes its bindings
 * when it is made: pino-http's own child per request was ~2 % of the scheduler's HTTP thread at 10
 * tasks per lease (`perf record` on that thread, docs/frontier-performance.md, forty-eighth
 * session), and this one was made twice per request, on that thread and on the main thread.
 */
export function requestMetaOf(
  requestId: string,
  caller: CallerIdentity | null,
  logger: Logger,
  operationId: string,
): RequestMeta {
  let log: Logger | undefined;
  return {
    requestId,
    caller,
    get log() {
      log ??= logger.child({ request_id: requestId, operation: operationId });
      return log;
    },
  };
}

/**
 * `T` as a handler receives it: the fields `K` carry a contract default, which the router's
 * validator (ajv `useDefaults`) filled in, so they are present even when the caller left them out.
 */
export type WithDefaults<T, K extends keyof T> = Omit<T, K> & {
  [Field in K]-?: Exclude<T[Field], undefined>;
};
