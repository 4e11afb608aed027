import WebSocket from 'ws';

/**
 * A CPU profile of another Node process taken through its inspector (started with
 * `--inspect=127.0.0.1:<port>`), for a window the bench chooses. `node --cpu-prof` profiles a
 * process from start to exit — start-up and the known-URL read included — and a profiler attached
 * to the measured rows costs them: alternating 1M runs with and without `--cpu-prof` put 4–13 %
 * more CPU on every URL and 11 % off the 16-worker throughput. So the measured rows run without
 * one, and the profile comes from a load of its own afterwards.
 */

/** A minimal Chrome DevTools Protocol session over the inspector's WebSocket. */
class InspectorSession {
  #nextId = 1;
  readonly #pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
      };
      const pending = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (pending === undefined || message.id === undefined) return;
      this.#pending.delete(message.id);
      if (message.error !== undefined) pending.reject(new Error(message.error.message));
      else pending.resolve(message.result);
    });
    socket.on('close', () => {
      for (const pending of this.#pending.values()) {
        pending.reject(new Error('the inspector closed the connection'));
      }
      this.#pending.clear();
    });
  }

  static async open(port: number): Promise<InspectorSession> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
      webSocketDebuggerUrl: string;
    }>;
    if (targets.length === 0) throw new Error(`no inspector target on port ${port}`);
    // A profile of a busy minute is tens of megabytes of JSON.
    const socket = new WebSocket(targets[0].webSocketDebuggerUrl, { maxPayload: 1 << 30 });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new InspectorSession(socket);
  }

  send<Result>(method: string, params: Record<string, unknown> = {}): Promise<Result> {
    const id = this.#nextId;
    this.#nextId += 1;
    return new Promise<Result>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.socket.close();
  }
}

/**
 * Runs `work` with the CPU profiler of the process inspected on `port` sampling its main thread,
 * and answers `work`'s result with the profile (the `.cpuprofile` format, ready to be saved).
 */
export async function profileWhile<T>(
  port: number,
  work: () => Promise<T>,
): Promise<{ result: T; profile: unknown }> {
  const session = await InspectorSession.open(port);
  try {
    await session.send('Profiler.enable');
    await session.send('Profiler.start');
    const result = await work();
    const { profile } = await session.send<{ profile: unknown }>('Profiler.stop');
    return { result, profile };
  } finally {
    session.close();
  }
}
