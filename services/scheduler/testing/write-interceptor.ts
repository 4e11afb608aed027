import type {
  KeyValueWrite,
  OrderedKeyValueBackend,
} from '../../common/storage/ordered-key-value-backend';

type WriteMethod = 'put' | 'putMany' | 'delete' | 'deleteMany' | 'deleteRange' | 'compareAndSwap';

/** The keys a write call touches, as `put <key>` / `delete <key>`. */
function describeWrite(method: WriteMethod, argumentList: unknown[]): string[] {
  switch (method) {
    case 'put':
      return [`put ${(argumentList[0] as KeyValueWrite).key}`];
    case 'putMany':
      return (argumentList[0] as KeyValueWrite[]).map((write) => `put ${write.key}`);
    case 'delete':
      return [`delete ${argumentList[0] as Buffer}`];
    case 'deleteMany':
      return (argumentList[0] as Buffer[]).map((key) => `delete ${key}`);
    case 'deleteRange': {
      const range = argumentList[0] as { start: Buffer; end: Buffer };
      return [`delete ${range.start}…${range.end}`];
    }
    case 'compareAndSwap':
      return [`put ${argumentList[0] as Buffer}`];
  }
}

const WRITE_METHODS: ReadonlySet<string> = new Set<WriteMethod>([
  'put',
  'putMany',
  'delete',
  'deleteMany',
  'deleteRange',
  'compareAndSwap',
]);

/**
 * Sits between a scheduler and its real storage (SchedulerDependencies.wrapBackend) and sees every
 * write call: it records them, can hold them back (a commit "in flight"), and can make storage
 * "die" — refuse every write from the first one a test names — as kill -9 between two writes would.
 */
export class WriteInterceptor {
  /** Every write call issued, in order (descriptions of its keys). */
  readonly issued: string[][] = [];
  /** Where `issued` stood at the last hold: waitForWrite looks only at writes after it. */
  #heldFrom = 0;
  #held: Promise<void> | undefined;
  #dieAt: ((keys: string[]) => boolean) | undefined;
  #isDead = false;

  /** Writes issued from now on are made only once the returned function is called. */
  hold(): () => void {
    this.#heldFrom = this.issued.length;
    let release!: () => void;
    this.#held = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.#held = undefined;
      release();
    };
  }

  /** From the first write call touching a key that matches `pattern` on, nothing is written. */
  dieAt(pattern: RegExp): void {
    this.#dieAt = (keys) => keys.some((key) => pattern.test(key));
  }

  /** From the first write call *after* one touching `pattern`, nothing is written. */
  dieAfter(pattern: RegExp): void {
    let hasSeen = false;
    this.#dieAt = (keys) => {
      if (hasSeen) return true;
      hasSeen = keys.some((key) => pattern.test(key));
      return false;
    };
  }

  get isDead(): boolean {
    return this.#isDead;
  }

  /** Resolves once a write call touching `pattern` was issued since the last hold (bounded). */
  async waitForWrite(pattern: RegExp, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const isIssued = () =>
      this.issued.slice(this.#heldFrom).some((keys) => keys.some((key) => pattern.test(key)));
    while (!isIssued()) {
      if (Date.now() > deadline)
        throw new Error(`no write matching ${pattern} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  wrap(inner: OrderedKeyValueBackend): OrderedKeyValueBackend {
    return new Proxy(inner, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        if (!WRITE_METHODS.has(String(property))) return (value as Function).bind(target);
        return (...argumentList: unknown[]) => {
          const keys = describeWrite(property as WriteMethod, argumentList);
          if (this.#isDead || this.#dieAt?.(keys)) {
            this.#isDead = true;
            return Promise.reject(new Error('storage died (simulated kill -9)'));
          }
          this.issued.push(keys);
          const write = () => (value as Function).apply(target, argumentList) as Promise<unknown>;
          const held = this.#held;
          return held === undefined ? write() : held.then(write);
        };
      },
    });
  }
}
