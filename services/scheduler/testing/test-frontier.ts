import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
import { readSettings } from '../../common/config/settings';
import { LmdbBackend } from '../../common/storage/lmdb-backend';
import type {
  KeyValueWrite,
  OrderedKeyValueBackend,
} from '../../common/storage/ordered-key-value-backend';
import { openServiceKeyspace } from '../../common/storage/service-keyspace';
import { assembleFrontier, type FrontierParts } from '../frontier/assemble-frontier';
import type { CommitMode } from '../frontier/commit-queue';
import type { FrontierSettings } from '../frontier/frontier-settings';
import {
  closeCleanly,
  rebuildFrontierMemory,
  type FrontierStartup,
} from '../frontier/frontier-startup';
import type {
  DomainRule,
  LeaseResponse,
  LeaseTask,
  LinkItem,
  ReportRequest,
} from '../frontier/wire-types';
import { frontierSettingsOf, SCHEDULER_SETTINGS } from '../scheduler-settings';
import { doneResult, ruleFor } from './contract-fixtures';
import { seedUrls } from './lease-helpers';
import { ManualClock } from './manual-clock';

/** The scheduler's defaults, with what a test is about changed. */
export function testFrontierSettings(overrides: Partial<FrontierSettings> = {}): FrontierSettings {
  return { ...frontierSettingsOf(readSettings(SCHEDULER_SETTINGS, {}, {})), ...overrides };
}

/**
 * Storage that can "die": after `crashAfter(n)` it lets n more write calls through and refuses
 * every later one without writing it — what kill -9 does between two writes. Reads go on, so a
 * new frontier opened over the same data sees exactly what reached the disk.
 */
export class CrashableBackend {
  #remainingWrites = Number.POSITIVE_INFINITY;
  #held: Promise<void> | undefined;
  #crashPattern: RegExp | undefined;
  readonly #inFlight = new Set<Promise<unknown>>();
  /** The keys of every write issued, as `put <key>` / `delete <key>`, in the order issued. */
  readonly writes: string[] = [];
  /** Write calls issued (one call may write many keys). */
  writeCallCount = 0;

  constructor(readonly inner: OrderedKeyValueBackend) {}

  crashAfter(writeCount: number): void {
    this.#remainingWrites = writeCount;
  }

  /** Dies at the first write call that touches a key matching `pattern` (it is not made). */
  crashAt(pattern: RegExp): void {
    this.#crashPattern = pattern;
  }

  get hasCrashed(): boolean {
    return this.#remainingWrites <= 0;
  }

  /** Resolves once every write issued so far has landed or failed. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
  }

  /** Writes issued from now on are not made until the returned function is called. */
  hold(): () => void {
    let release!: () => void;
    this.#held = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.#held = undefined;
      release();
    };
  }

  /** The backend a frontier under test writes through. */
  backend(): OrderedKeyValueBackend {
    const gate = <T>(describe: () => string[], write: () => Promise<T>): Promise<T> => {
      const described = describe();
      if (this.#crashPattern !== undefined && described.some((w) => this.#crashPattern?.test(w))) {
        this.#remainingWrites = 0;
      }
      if (this.#remainingWrites <= 0) return Promise.reject(new Error('the process died'));
      this.#remainingWrites -= 1;
      this.writeCallCount += 1;
      this.writes.push(...described);
      const held = this.#held;
      const written = held === undefined ? write() : held.then(write);
      // A write the "process" issued before dying still lands (or not) before anyone reads again.
      this.#inFlight.add(written);
      const forget = () => this.#inFlight.delete(written);
      written.then(forget, forget);
      return written;
    };
    const inner = this.inner;
    const keysOf = (writes: KeyValueWrite[]) => writes.map((write) => `put ${write.key}`);
    return {
      backendName: inner.backendName,
      get: (key) => inner.get(key),
      getMany: (keys) => inner.getMany(keys),
      ...(inner.getDecodedMany === undefined
        ? {}
        : { getDecodedMany: (keys, decode) => inner.getDecodedMany!(keys, decode) }),
      scan: (range) => inner.scan(range),
      put: (write) =>
        gate(
          () => keysOf([write]),
          () => inner.put(write),
        ),
      putMany: (writes) =>
        gate(
          () => keysOf(writes),
          () => inner.putMany(writes),
        ),
      delete: (key) =>
        gate(
          () => [`delete ${key}`],
          () => inner.delete(key),
        ),
      deleteMany: (keys) =>
        gate(
          () => keys.map((key) => `delete ${key}`),
          () => inner.deleteMany(keys),
        ),
      deleteRange: (range) =>
        gate(
          () => [`delete ${range.start}…${range.end}`],
          () => inner.deleteRange(range),
        ),
      compareAndSwap: (key, expected, next, ttlSeconds) =>
        gate(
          () => [`put ${key}`],
          () => inner.compareAndSwap(key, expected, next, ttlSeconds),
        ),
      close: async () => undefined,
    };
  }
}

export interface TestFrontier {
  parts: FrontierParts;
  clock: ManualClock;
  storage: CrashableBackend;
  /** What its start did (whether it recounted from url_task). */
  startup: FrontierStartup;
  /** Ends this frontier as a clean stop does (Frontier.stop's final write); reopen after it. */
  stopCleanly(): Promise<void>;
  /**
   * Opens a fresh frontier over the same storage, as a restarted process would: after a crash,
   * unless stopCleanly ran first.
   */
  reopen(): Promise<TestFrontier>;
  /** Stops the link-preparation threads of every frontier opened, closes the storage, deletes it. */
  dispose(): Promise<void>;
}

export interface TestFrontierOptions {
  clock?: ManualClock;
  settings?: Partial<FrontierSettings>;
  /** 'phased': batch by batch, phase by phase, as on TiKV (see CommitQueue). Default 'grouped'. */
  commitMode?: CommitMode;
  /** Writes data into the fresh storage before the frontier first opens (older layouts). */
  prepareStorage?: (backend: OrderedKeyValueBackend) => Promise<void>;
}

/**
 * The frontier's parts assembled over a fresh LMDB directory with a manual clock and no loops, for
 * tests that call its components directly (no HTTP). Start-up runs as in the scheduler.
 */
export async function openTestFrontier(options: TestFrontierOptions = {}): Promise<TestFrontier> {
  const directory = mkdtempSync(join(tmpdir(), 'frontier-unit-'));
  const lmdb = await LmdbBackend.open(directory);
  await options.prepareStorage?.(lmdb);
  const clock = options.clock ?? new ManualClock();
  let previous: CrashableBackend | undefined;
  const opened: FrontierParts[] = [];
  const open = async (): Promise<TestFrontier> => {
    await previous?.settled();
    const storage = new CrashableBackend(lmdb);
    previous = storage;
    const parts = assembleFrontier({
      keyspace: openServiceKeyspace('scheduler', storage.backend()),
      clock,
      settings: testFrontierSettings(options.settings),
      logger: pino({ level: process.env.TEST_FRONTIER_LOG_LEVEL ?? 'silent' }),
      registry: new Registry(),
      probe: undefined,
      commitMode: options.commitMode ?? 'grouped',
    });
    opened.push(parts);
    const startup = await rebuildFrontierMemory(parts.memory);
    return {
      parts,
      clock,
      storage,
      startup,
      stopCleanly: async () => {
        if (!(await closeCleanly(parts, clock.nowMs()))) {
          throw new Error('the clean stop did not write');
        }
      },
      reopen: open,
      dispose: async () => {
        await Promise.all(opened.map(({ linkPreparation }) => linkPreparation.close()));
        await lmdb.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  };
  return open();
}

/** Rules for `domains` (csr, no interval unless overridden) and `count` seeds each. */
export async function seedTestFrontier(
  parts: FrontierParts,
  domains: readonly string[],
  count: number,
  ruleOverrides: Partial<DomainRule> = {},
): Promise<void> {
  await parts.ruleIntake.submit(domains.map((domain) => ruleFor(domain, ruleOverrides)));
  await parts.seedIntake.submit(seedUrls(domains, count));
}

/** A lease as the downloader asks for it (no long poll unless `waitMs`). */
export function leaseFrom(
  parts: FrontierParts,
  request: {
    workerId?: string;
    taskCount?: number;
    leaseTtlSeconds?: number;
    waitMs?: number;
  } = {},
): Promise<LeaseResponse> {
  return parts.leaseIssuer.lease({
    workerId: request.workerId ?? 'w1',
    taskCount: request.taskCount ?? 50,
    leaseTtlSeconds: request.leaseTtlSeconds ?? 60,
    waitMs: request.waitMs ?? 0,
  });
}

/** Every task of `lease` reported done, with `linksOf(task)` as its links. */
export function doneReportOf(
  lease: LeaseResponse,
  linksOf: (task: LeaseTask) => LinkItem[] = () => [],
): ReportRequest {
  return {
    lease_id: lease.lease_id,
    worker_id: lease.worker_id,
    result_list: lease.task_list.map((task) => doneResult(task, { link_list: linksOf(task) })),
  };
}
