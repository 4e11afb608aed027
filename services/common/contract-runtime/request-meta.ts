import type { Logger } from 'pino';
import type { CallerIdentity } from './caller-identity';

/** What a handler learns about the request besides its typed input. */
export interface RequestMeta {
  /** From X-Request-Id when the caller sent one, else generated; echoed in the answer. */
  requestId: string;
  /** Null only for operations without security. */
  caller: CallerIdentity | null;
  /** A child logger bound to the request id and operation. */
  log: Logger;
}

/**
 * `T` as a handler receives it: the fields `K` carry a contract default, which the router's
 * validator (ajv `useDefaults`) filled in, so they are present even when the caller left them out.
 */
export type WithDefaults<T, K extends keyof T> = Omit<T, K> & {
  [Field in K]-?: Exclude<T[Field], undefined>;
};
