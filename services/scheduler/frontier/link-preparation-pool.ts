import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { startWorkerThread } from '../../common/process/worker-thread-entry';
import { parseFrontierUrl, type FrontierUrl, type FrontierUrlRejection } from './frontier-url';
import {
  decodeParsedUrls,
  type PreparationAnswer,
  type PreparationRequest,
} from './link-preparation-protocol';

/** Normalizes and hashes a list of link URLs, answering in the same order. */
export type UrlListParser = (
  urls: readonly string[],
) => Promise<Array<FrontierUrl | FrontierUrlRejection>>;

const THREAD_ENTRY = join(__dirname, 'link-preparation-thread');

interface PendingPreparation {
  urls: readonly string[];
  resolve: (parsed: Array<FrontierUrl | FrontierUrlRejection>) => void;
}

/**
 * Threads that normalize and hash the links of reports, off the event loop. Every link of every
 * report is parsed (WHATWG URL), normalized and hashed (SHA-256) before admission: ~1.1 µs a link,
 * ~270 µs for a report of 50 pages with 5 links each — a few per cent of the main thread, and work
 * that needs nothing of the frontier's state. On a thread, a report costs the main thread ~60 µs of
 * it (sending the URLs, reading the answer), and its requests are answered meanwhile.
 *
 * Never a point of failure: with no threads (`threadCount` 0), after a thread failed, and after
 * close, URLs are parsed on the calling thread — preparations waiting for a failed thread too — so
 * a report never waits for a thread that will not answer. Reports are dealt to the threads in turn.
 */
export class LinkPreparationPool {
  readonly #threads: Worker[] = [];
  readonly #pending = new Map<number, PendingPreparation>();
  readonly #logger: Logger;
  #nextId = 0;
  #nextThread = 0;
  /** Set once a thread failed or the pool closed: everything is parsed inline from then on. */
  #isInline: boolean;
  #isClosed = false;

  /** `entry`: the thread's module, without extension (a test gives one that fails). */
  constructor(
    private readonly configuredCount: number,
    logger: Logger,
    private readonly entry = THREAD_ENTRY,
  ) {
    this.#logger = logger;
    this.#isInline = configuredCount === 0;
  }

  /** Threads preparing links (0: the main thread does); counted before the first is started. */
  get threadCount(): number {
    return this.#isInline ? 0 : this.configuredCount;
  }

  readonly parse: UrlListParser = (urls) => {
    if (this.#isInline || urls.length === 0) return Promise.resolve(urls.map(parseFrontierUrl));
    // Started with the first report that has links: a frontier that never sees one (start-up,
    // tooling, most tests) loads no thread.
    if (this.#threads.length === 0) {
      for (let index = 0; index < this.configuredCount; index += 1) {
        this.#threads.push(this.#startThread());
      }
    }
    const id = this.#nextId;
    this.#nextId += 1;
    const thread = this.#threads[this.#nextThread];
    this.#nextThread = (this.#nextThread + 1) % this.#threads.length;
    return new Promise((resolve) => {
      this.#pending.set(id, { urls, resolve });
      const request: PreparationRequest = { id, urls: urls as string[] };
      thread.postMessage(request);
    });
  };

  /** Stops the threads; what they had not answered yet is parsed here. */
  async close(): Promise<void> {
    this.#isClosed = true;
    this.#becomeInline();
    await Promise.all(this.#threads.map((thread) => thread.terminate()));
  }

  #startThread(): Worker {
    const thread = startWorkerThread(this.entry);
    // The threads only ever answer requests: they must not keep a stopping process alive.
    thread.unref();
    thread.on('message', (answer: PreparationAnswer) => this.#onAnswer(answer));
    thread.on('error', (error) => this.#onFailure(error));
    thread.on('exit', (code) => this.#onFailure(new Error(`thread exited with code ${code}`)));
    return thread;
  }

  #onAnswer({ id, parsed }: PreparationAnswer): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return; // already parsed inline after a failure
    this.#pending.delete(id);
    pending.resolve(decodeParsedUrls(parsed));
  }

  #onFailure(error: unknown): void {
    if (this.#isClosed || this.#isInline) return;
    this.#logger.error(
      { err: error },
      'a link-preparation thread failed: links are normalized on the main thread from now on',
    );
    this.#becomeInline();
    for (const thread of this.#threads) void thread.terminate();
  }

  #becomeInline(): void {
    this.#isInline = true;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const { urls, resolve } of pending) resolve(urls.map(parseFrontierUrl));
  }
}
