import type { Logger } from 'pino';
import type { CallerIdentity } from '../contract-runtime/caller-identity';
import {
  ContractError,
  type ContractErrorDetails,
  type ErrorCode,
} from '../contract-runtime/contract-error';
import type { OperationInput, OperationInvoker } from '../contract-runtime/contract-router';
import type { OperationDefinition } from '../contract-runtime/operation-definition';
import { requestMetaOf } from '../contract-runtime/request-meta';

/**
 * A contract operation the HTTP thread received, checked and reduced to its declared fields by the
 * contract router there, on its way to the handler on the service's main thread (http-edge.ts).
 */
export interface ForwardedCall {
  operationId: string;
  query: Record<string, unknown>;
  path: Record<string, unknown>;
  /**
   * The checked body as JSON text (undefined: none). A string crosses between threads as a copy
   * of its bytes; a report's objects, structured-cloned, cost 7.3 µs per result to write and read
   * back, as JSON 5.9 (a scratch loop over bench:frontier's reports of 50 results).
   */
  bodyJson: string | undefined;
  /** What the surface prepared from the body (HttpEdgeSurface.prepareOperations), if anything. */
  preparedOnThread: unknown;
  requestId: string;
  caller: CallerIdentity | null;
}

/**
 * How the handler ended: its result, a contract error, or a fault (a 500 at the edge). The result
 * crosses structured-cloned: for a lease of 50 tasks v8's serializer costs the main thread less
 * than `JSON.stringify` (0.48 against 0.60 µs a task), and answers sent as JSON text measured
 * slower (docs/frontier-performance.md, thirty-ninth session).
 */
export type ForwardedOutcome =
  | { kind: 'result'; result: unknown }
  | {
      kind: 'contract_error';
      status: number;
      errorCode: ErrorCode;
      message: string;
      details: ContractErrorDetails;
    }
  | { kind: 'fault'; name: string; message: string; stack: string | undefined };

/**
 * The main thread's side: runs the handler of a forwarded call with a request logger of its own,
 * and answers how it ended. Never rejects: a handler's failure is part of the outcome.
 */
export function operationDispatcher(
  invokers: Readonly<Record<string, OperationInvoker>>,
  logger: Logger,
): (call: ForwardedCall) => Promise<ForwardedOutcome> {
  return async ({ operationId, query, path, bodyJson, preparedOnThread, requestId, caller }) => {
    try {
      const body: unknown = bodyJson === undefined ? undefined : JSON.parse(bodyJson);
      const invoker = invokers[operationId];
      if (invoker === undefined) throw new Error(`no handler for operation ${operationId}`);
      const meta = requestMetaOf(requestId, caller, logger, operationId);
      const result = await invoker({ query, path, body, preparedOnThread, meta });
      return { kind: 'result', result };
    } catch (error) {
      if (error instanceof ContractError) {
        return {
          kind: 'contract_error',
          status: error.status,
          errorCode: error.errorCode,
          message: error.message,
          details: error.details,
        };
      }
      const fault = error instanceof Error ? error : new Error(String(error));
      return { kind: 'fault', name: fault.name, message: fault.message, stack: fault.stack };
    }
  };
}

/**
 * The HTTP thread's side: an invoker per operation of `definitions` that sends the checked input
 * — with what `prepareOperations` makes of its body — through `send` and answers as the handler
 * did: its result, or the same ContractError, or an error carrying the fault's own stack (which
 * the router logs with the 500 it answers).
 */
export function forwardingInvokers(
  definitions: readonly OperationDefinition[],
  send: (call: ForwardedCall) => Promise<ForwardedOutcome>,
  prepareOperations: Readonly<Record<string, (body: unknown) => unknown>> = {},
): Record<string, OperationInvoker> {
  const invokers: Record<string, OperationInvoker> = {};
  for (const { operationId } of definitions) {
    const prepare = prepareOperations[operationId];
    invokers[operationId] = async ({ query, path, body, readBodyJson, meta }: OperationInput) =>
      outcomeValue(
        await send({
          operationId,
          query,
          path,
          preparedOnThread: prepare === undefined ? undefined : prepare(body),
          // The text received, when it is the checked body: writing a report of 50 results out
          // again was 8.7 % of the HTTP thread's time (a 100k profile of bench:frontier's load).
          bodyJson: body === undefined ? undefined : (readBodyJson?.() ?? JSON.stringify(body)),
          requestId: meta.requestId,
          caller: meta.caller,
        }),
      );
  }
  return invokers;
}

function outcomeValue(outcome: ForwardedOutcome): unknown {
  switch (outcome.kind) {
    case 'result':
      return outcome.result;
    case 'contract_error':
      throw new ContractError(outcome.status, outcome.errorCode, outcome.message, outcome.details);
    case 'fault': {
      const fault = new Error(outcome.message);
      fault.name = outcome.name;
      fault.stack = outcome.stack;
      throw fault;
    }
  }
}
