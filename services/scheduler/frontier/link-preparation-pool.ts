import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { startWorkerThread } from '../../common/process/worker-thread-entry';
import { parseFrontierUrl, type PreparedUrl, type UrlListParser } from './frontier-url';
import { KnownUrlReader, type KnownUrlTable } from './known-url-set';
import {
  decodePreparedUrls,
  knownUrlTableMessage,
  type PreparationAnswer,
  type PreparationRequest,
} from './link-preparation-protocol';

const THREAD_ENTRY = join(__dirname, 'link-preparation-thread');

interface PendingPreparation {
  urls: readonly string[];
  isKnownAnswered: boolean;
  thread: PreparationThread;
  resolve: (parsed: PreparedUrl[]) => void;
  reject: (error: unknown) => void;
}

/** A thread and how many requests it has not answered yet (it holds the process only then). */
interface PreparationThread {
  worker: Worker;
  pendingCount: number;
}

/**
 * Threads that normalize and hash the links of reports, off the event loop. Every link of every
 * report is parsed (WHATWG URL), normalized and hashed (SHA-256) before admission: ~1.1 µs a link,
 * ~270 µs for a report of 50 pages with 5 links each — a few per cent of the main thread, and work
 * that needs nothing of the frontier's state. On a thread, a report costs the main thread ~60 µs of
 * it (sending the URLs, reading the answer), and its requests are answered meanwhile. Reports are
 * dealt to the threads in turn; one whose links are still being prepared may be overtaken by a
 * later one, which changes nothing: every report is decided under the frontier's lock. With HTTP
 * on a thread of its own (--http-thread, the default) that thread prepares a report's links
 * instead (thread-link-preparation.ts) and the pool stands by for a preparation that did not line
 * up.
 *
 * The threads also read the frontier's known-URL set (shareKnownUrls: its tables are shared
 * memory), so that a link to a page the frontier holds — most links of most pages — comes back as
 * a url_hash the main thread counts as a duplicate, instead of a URL it reads back, looks up and
 * decides on.
 *
 * Never a point of failure: with no threads (`threadCount` 0), once a thread failed to start, died
 * or sent what cannot be read, and after close, URLs are parsed on the calling thread —
 * preparations that were waiting for a failed thread too (and nothing is answered as known).
 */
export class LinkPreparationPool {
  readonly #threads: PreparationThread[] = [];
  readonly #pending = new Map<number, PendingPreparation>();
  readonly #logger: Logger;
  #nextId = 0;
  #nextThread = 0;
  /** The known-URL tables a reader needs, as shared so far: a thread started later gets them. */
  readonly #knownUrls = new KnownUrlReader();
  /** Set once a thread failed or the pool closed: everything is parsed inline from then on. */
  #isInline: boolean;

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

  /**
   * Starts the threads now rather than with the first report that has links (which would wait for
   * them: ~40 ms compiled, ~90 ms through tsx). A frontier that is never started (tooling, tests of
   * its parts) loads no thread at all.
   */
  start(): void {
    if (this.#isInline || this.#threads.length > 0) return;
    try {
      for (let index = 0; index < this.configuredCount; index += 1) {
        this.#threads.push(this.#startThread());
      }
    } catch (error) {
      this.#onFailure(error);
    }
  }

  /**
   * Hands the threads a table of the frontier's known-URL set (pass it to
   * KnownUrlSet.watchTables): from then on they may answer a URL it holds as known.
   */
  shareKnownUrls(table: KnownUrlTable): void {
    this.#knownUrls.addTable(table);
    for (const thread of this.#threads) this.#sendTable(thread, table);
  }

  readonly parse: UrlListParser = (urls, options) => {
    if (urls.length === 0) return parsedHere(urls);
    this.start();
    if (this.#isInline) return parsedHere(urls);
    const id = this.#nextId;
    this.#nextId += 1;
    const thread = this.#threads[this.#nextThread];
    this.#nextThread = (this.#nextThread + 1) % this.#threads.length;
    const isKnownAnswered = options?.isKnownAnswered ?? false;
    return new Promise<PreparedUrl[]>((resolve, reject) => {
      this.#pending.set(id, { urls, isKnownAnswered, thread, resolve, reject });
      // Only a thread with requests to answer keeps the process alive.
      if (thread.pendingCount === 0) thread.worker.ref();
      thread.pendingCount += 1;
      try {
        const request: PreparationRequest = {
          kind: 'prepare',
          id,
          urls,
          isKnownAnswered,
        };
        thread.worker.postMessage(request);
      } catch (error) {
        this.#settle(id)?.reject(error);
      }
    });
  };

  /** Stops the threads; what they had not answered yet is parsed here. */
  async close(): Promise<void> {
    this.#becomeInline();
    await Promise.all(this.#threads.map(({ worker }) => worker.terminate()));
  }

  #startThread(): PreparationThread {
    const worker = startWorkerThread(this.entry);
    const thread: PreparationThread = { worker, pendingCount: 0 };
    worker.on('message', (answer: PreparationAnswer) => this.#onAnswer(answer));
    worker.on('messageerror', (error) => this.#onFailure(error));
    worker.on('error', (error) => this.#onFailure(error));
    worker.on('exit', (code) => this.#onFailure(new Error(`thread exited with code ${code}`)));
    // After the listeners: Node refs a worker again when its first 'message' listener is added.
    worker.unref();
    for (const table of this.#knownUrls.tablesOldestFirst()) this.#sendTable(thread, table);
    return thread;
  }

  #sendTable(thread: PreparationThread, table: KnownUrlTable): void {
    try {
      thread.worker.postMessage(knownUrlTableMessage(table));
    } catch (error) {
      this.#onFailure(error);
    }
  }

  #onAnswer(answer: PreparationAnswer): void {
    const pending = this.#settle(answer.id);
    if (pending === undefined) return; // already parsed inline after a failure
    if ('error' in answer) {
      pending.reject(new Error(`link preparation failed: ${answer.error}`));
      return;
    }
    try {
      pending.resolve(decodePreparedUrls(answer.parsed, pending.isKnownAnswered));
    } catch (error) {
      pending.reject(error);
    }
  }

  /** Takes a request out of the pending ones; its thread no longer holds the process for it. */
  #settle(id: number): PendingPreparation | undefined {
    const pending = this.#pending.get(id);
    if (pending === undefined) return undefined;
    this.#pending.delete(id);
    pending.thread.pendingCount -= 1;
    if (pending.thread.pendingCount === 0) pending.thread.worker.unref();
    return pending;
  }

  #onFailure(error: unknown): void {
    // Inline already: an earlier failure was reported, or the pool closed (its threads' exits).
    if (this.#isInline) return;
    this.#logger.error(
      { err: error },
      'a link-preparation thread failed: links are normalized on the main thread from now on',
    );
    this.#becomeInline();
    for (const { worker } of this.#threads) void worker.terminate();
  }

  #becomeInline(): void {
    this.#isInline = true;
    for (const id of [...this.#pending.keys()]) {
      const pending = this.#settle(id) as PendingPreparation;
      parsedHere(pending.urls).then(pending.resolve, pending.reject);
    }
  }
}

/** The URLs parsed on the calling thread, a fault (never a refused URL) as a rejection. */
function parsedHere(urls: readonly string[]): Promise<PreparedUrl[]> {
  try {
    return Promise.resolve(urls.map(parseFrontierUrl));
  } catch (error) {
    return Promise.reject(error);
  }
}
