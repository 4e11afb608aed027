import { MessageChannel } from 'node:worker_threads';
import { schedulerOperationDefinitions } from '../../../generated/scheduler/operation-definitions';
import pino from 'pino';
import { ContractError } from '../contract-runtime/contract-error';
import type { OperationInput, OperationInvoker } from '../contract-runtime/contract-router';
import type { OperationDefinition } from '../contract-runtime/operation-definition';
import { ThreadCalls } from '../process/thread-calls';
import { EDGE_CALLS } from './http-edge-protocol';
import {
  forwardingInvokers,
  operationDispatcher,
  type ForwardedOutcome,
} from './forwarded-operation';

/** An operation of the scheduler's contract under another name (only the name is forwarded). */
const definitionOf = (operationId: string): OperationDefinition => ({
  ...schedulerOperationDefinitions[0],
  operationId,
});

/**
 * Handlers on one side of a real message channel, the forwarding invokers on the other: what the
 * HTTP thread's router calls and what the main thread runs, with structured clones between.
 */
function forwardedThroughChannel(
  handlers: Record<string, OperationInvoker>,
  prepareOperations?: Record<string, (body: unknown) => unknown>,
) {
  const channel = new MessageChannel();
  const mainThread = new ThreadCalls(channel.port1);
  const httpThread = new ThreadCalls(channel.port2);
  mainThread.handle(EDGE_CALLS.invoke, operationDispatcher(handlers, pino({ level: 'silent' })));
  const invokers = forwardingInvokers(
    Object.keys(handlers).map(definitionOf),
    (call) => httpThread.call<ForwardedOutcome>(EDGE_CALLS.invoke, call),
    prepareOperations,
  );
  return { invokers, close: () => channel.port1.close() };
}

const inputOf = (body: unknown): OperationInput => ({
  query: { limit: 5 },
  path: { id: 'a' },
  body,
  meta: {
    requestId: 'r-1',
    caller: { tokenKind: 'service' },
    log: pino({ level: 'silent' }),
  },
});

describe('forwarded operations', () => {
  it('hand the handler the checked input, its request id and caller, and a logger of its own', async () => {
    const seen: OperationInput[] = [];
    const { invokers, close } = forwardedThroughChannel({
      submit: async (input) => {
        seen.push(input);
        return { accepted_count: 2 };
      },
    });
    try {
      await expect(invokers.submit(inputOf({ items: ['x', 'y'] }))).resolves.toEqual({
        accepted_count: 2,
      });
      expect(seen[0]).toMatchObject({
        query: { limit: 5 },
        path: { id: 'a' },
        body: { items: ['x', 'y'] },
        meta: { requestId: 'r-1', caller: { tokenKind: 'service' } },
      });
      expect(typeof seen[0].meta.log.info).toBe('function');
    } finally {
      close();
    }
  });

  it('send the JSON text the router received when it offers it, instead of writing the body out', async () => {
    const seen: unknown[] = [];
    const { invokers, close } = forwardedThroughChannel({
      submit: async (input) => {
        seen.push(input.body);
        return {};
      },
    });
    try {
      // The two differ here only to tell which one crossed (the router offers the text of the body).
      await invokers.submit({
        ...inputOf({ items: ['x'] }),
        readBodyJson: () => '{"items":["y"]}',
      });
      await invokers.submit(inputOf({ items: ['x'] }));
      expect(seen).toEqual([{ items: ['y'] }, { items: ['x'] }]);
    } finally {
      close();
    }
  });

  it("hand an operation's handler what the thread prepared from its body, and others nothing", async () => {
    const seen: unknown[] = [];
    const { invokers, close } = forwardedThroughChannel(
      {
        submit: async (input) => {
          seen.push(input.preparedOnThread);
          return {};
        },
        other: async (input) => {
          seen.push(input.preparedOnThread);
          return {};
        },
      },
      { submit: (body) => ({ itemCount: (body as { items: unknown[] }).items.length }) },
    );
    try {
      await invokers.submit(inputOf({ items: ['x', 'y'] }));
      await invokers.other(inputOf({ items: ['x'] }));
      expect(seen).toEqual([{ itemCount: 2 }, undefined]);
    } finally {
      close();
    }
  });

  it('answer a contract error as the same ContractError, details included', async () => {
    const { invokers, close } = forwardedThroughChannel({
      busy: async () => {
        throw new ContractError(429, 'domain_rate_limited', 'slow down', { retryAfterSeconds: 7 });
      },
    });
    try {
      const error = (await invokers.busy(inputOf({})).catch((caught: unknown) => caught)) as
        ContractError | undefined;
      expect(error).toBeInstanceOf(ContractError);
      expect(error?.status).toBe(429);
      expect(error?.toBody()).toEqual({
        error_code: 'domain_rate_limited',
        message: 'slow down',
        retry_after_seconds: 7,
      });
    } finally {
      close();
    }
  });

  it("answer any other failure as a plain error with the fault's own name and stack", async () => {
    const { invokers, close } = forwardedThroughChannel({
      broken: async () => {
        throw new TypeError('cannot read x');
      },
    });
    try {
      const error = (await invokers
        .broken(inputOf({}))
        .catch((caught: unknown) => caught)) as Error;
      expect(error).not.toBeInstanceOf(ContractError);
      expect(error.name).toBe('TypeError');
      expect(error.message).toBe('cannot read x');
      expect(error.stack).toContain('forwarded-operation.test.ts');
    } finally {
      close();
    }
  });

  it('answer an operation the main thread has no handler for as a fault', async () => {
    const dispatch = operationDispatcher({}, pino({ level: 'silent' }));
    const outcome = await dispatch({
      operationId: 'missing',
      query: {},
      path: {},
      bodyJson: undefined,
      preparedOnThread: undefined,
      requestId: 'r-2',
      caller: null,
    });
    expect(outcome).toMatchObject({
      kind: 'fault',
      message: 'no handler for operation missing',
    });
  });
});
