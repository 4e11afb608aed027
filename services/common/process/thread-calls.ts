/**
 * Calls between two threads of one process over a message port (a Worker on one side, its
 * parentPort on the other): `call` posts a named request and answers with what the other side's
 * handler returned; `notify` posts one that needs no answer. Values cross as structured clones.
 */

/** The part of a Worker or a MessagePort this needs. */
export interface CallPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

type Handler = (payload: never) => unknown;

interface CallMessage {
  threadCall: 'call';
  id: number;
  method: string;
  payload: unknown;
}

interface AnswerMessage {
  threadCall: 'answer';
  id: number;
  isFailure: boolean;
  /** The handler's value, or for a failure its message and stack. */
  value: unknown;
}

interface NoticeMessage {
  threadCall: 'notice';
  method: string;
  payload: unknown;
}

type ThreadMessage = CallMessage | AnswerMessage | NoticeMessage;

interface PendingCall {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export class ThreadCalls {
  #nextId = 0;
  readonly #pending = new Map<number, PendingCall>();
  readonly #handlers = new Map<string, Handler>();
  #failure: Error | undefined;

  constructor(private readonly port: CallPort) {
    port.on('message', (message) => this.#receive(message as ThreadMessage));
  }

  /** Answers the other side's calls and notices of `method` with `handler`. */
  handle<Payload, Result>(
    method: string,
    handler: (payload: Payload) => Result | Promise<Result>,
  ): void {
    this.#handlers.set(method, handler as Handler);
  }

  call<Result>(method: string, payload?: unknown): Promise<Result> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const id = this.#nextId;
    this.#nextId += 1;
    return new Promise<Result>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      const message: CallMessage = { threadCall: 'call', id, method, payload };
      try {
        this.port.postMessage(message);
      } catch (error) {
        this.#pending.delete(id);
        reject(error as Error);
      }
    });
  }

  notify(method: string, payload?: unknown): void {
    const message: NoticeMessage = { threadCall: 'notice', method, payload };
    this.port.postMessage(message);
  }

  /** Rejects every call not answered yet, and every later one (the other side is gone). */
  failAll(error: Error): void {
    this.#failure = error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  #receive(message: ThreadMessage): void {
    switch (message.threadCall) {
      case 'answer': {
        const pending = this.#pending.get(message.id);
        if (pending === undefined) return;
        this.#pending.delete(message.id);
        if (message.isFailure) pending.reject(errorOf(message.value));
        else pending.resolve(message.value);
        return;
      }
      case 'call':
        void this.#answer(message);
        return;
      case 'notice':
        this.#handlers.get(message.method)?.(message.payload as never);
        return;
    }
  }

  async #answer({ id, method, payload }: CallMessage): Promise<void> {
    let answer: AnswerMessage;
    try {
      const handler = this.#handlers.get(method);
      if (handler === undefined) throw new Error(`no handler for thread call ${method}`);
      answer = {
        threadCall: 'answer',
        id,
        isFailure: false,
        value: await handler(payload as never),
      };
    } catch (error) {
      const { message, stack } = error instanceof Error ? error : new Error(String(error));
      answer = { threadCall: 'answer', id, isFailure: true, value: { message, stack } };
    }
    try {
      this.port.postMessage(answer);
    } catch (error) {
      // A value that cannot be cloned: the caller learns why instead of waiting forever.
      const failure = { message: `thread call ${method}: ${(error as Error).message}` };
      this.port.postMessage({ threadCall: 'answer', id, isFailure: true, value: failure });
    }
  }
}

function errorOf(value: unknown): Error {
  const { message, stack } = value as { message: string; stack?: string };
  const error = new Error(message);
  if (stack !== undefined) error.stack = stack;
  return error;
}
