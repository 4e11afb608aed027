import type { Logger } from 'pino';
import type { components, SchedulerClient } from '../../../generated/scheduler';
import { sleep } from '../../common/backoff/abortable-sleep';
import type { DownloaderMetrics } from '../downloader-metrics';
import type { LeaseTaskFetch, LeaseTaskFetcher } from './lease-task-fetch';
import type { ReportDelivery } from './report-delivery';
import type { ReportOutbox } from './report-outbox';
import { reportResultOf, type LeaseTask } from './report-results';

type LeaseResponse = components['schemas']['LeaseResponse'];

/**
 * Pause after an empty answer that came back sooner than asked: from the first, doubling per
 * repeat, up to the last (and never above the poll interval). Short on purpose: a scheduler
 * without long polling hands out what is due now, and tasks of a domain at 200 ms come due five
 * times a second — a 2 s sleep left most of what the rules allow unused.
 */
const MIN_EMPTY_BACKOFF_MS = 50;
const MAX_EMPTY_BACKOFF_MS = 400;

/**
 * How long before its expiry a lease is reported. A fixed margin would eat most of a short lease
 * (5 s of a 10 s lease leaves a 6 s page no chance, and it would be fetched again and again), so
 * the margin is a fifth of the lease's life, capped at `maxReportMarginMs`.
 */
export function reportMarginOf(leaseLifeMs: number, maxReportMarginMs: number): number {
  return Math.max(0, Math.min(maxReportMarginMs, Math.floor(leaseLifeMs / 5)));
}

/** Time a lease answer may take beyond the wait the scheduler was allowed. */
const LEASE_ANSWER_MS = 10_000;

export interface LeaseLoopSettings {
  readonly workerId: string;
  /** Most tasks asked for per lease. */
  readonly taskCount: number;
  readonly leaseTtlSeconds: number;
  /**
   * How long the scheduler may hold a lease call while nothing is due (`wait_ms`, long polling);
   * 0 asks for an answer at once. An empty answer sooner than half of it was not held (a scheduler
   * of an older contract ignores `wait_ms`): back off.
   */
  readonly leaseWaitMs: number;
  /** Wait after a failed lease call, and the longest backoff after quick empty answers. */
  readonly pollIntervalMs: number;
  /**
   * Time kept for the report at the end of a lease (a task must be able to finish this long
   * before its lease expires, or it is not started). Short leases keep a fifth of their life.
   */
  readonly maxReportMarginMs: number;
  /** Shutdown: how long renders in flight may still finish. */
  readonly drainMs: number;
  /** Shutdown: how long the last reports may take before they stay in the outbox. */
  readonly finalReportMs: number;
}

export interface LeaseLoopDependencies {
  readonly client: SchedulerClient;
  /** Fetches one task the way it asks (render or api). */
  readonly fetcher: LeaseTaskFetcher;
  readonly outbox: ReportOutbox;
  readonly delivery: ReportDelivery;
  /** Read before every lease call (the page pool and the brake change live). */
  readonly capacity: () => LeaseCapacity;
  readonly settings: LeaseLoopSettings;
  readonly metrics: DownloaderMetrics;
  readonly logger: Logger;
}

/** What the loop may hold: tasks that may render (pages) and tasks in all (requests). */
export interface LeaseCapacity {
  readonly pageCount: number;
  readonly requestCount: number;
}

/** An api task may still fall back to rendering; then it waits for a page like any render. */
function isLeasedToRender(task: LeaseTask): boolean {
  return task.render_strategy !== 'api';
}

interface ActiveLease {
  readonly lease: LeaseResponse;
  /** Unreported tasks must have finished by then (the earlier of the scheduler's and our clock). */
  readonly expiresAtMs: number;
  /** See `reportMarginOf`. */
  readonly reportMarginMs: number;
  remainingCount: number;
  /** Set once the report started: results finishing later are not appended any more. */
  reporting: Promise<void> | undefined;
  readonly tasks: Array<Promise<void>>;
  /** Reports the lease before it expires even if a task is still running (see begin). */
  deadlineTimer: NodeJS.Timeout | undefined;
}

/**
 * Entry A: lease from the scheduler, fetch every task under the domain limits (over the limit →
 * delay, never drop), report the whole lease through the durable outbox.
 *
 * Backpressure: the loop holds at most `capacity().pageCount` unfinished tasks that may render —
 * min(page pool, max_concurrent_count) — and at most `capacity().requestCount`
 * (max_concurrent_count) in all, and asks only for the room left, so leased URLs never pile up
 * behind a busy downloader (they stay in the scheduler's queue, where other downloaders can take
 * them). An `api` task (v2) takes no page: while api tasks run, the room for pages stays.
 */
export class LeaseLoop {
  private readonly active = new Map<string, ActiveLease>();
  private heldTaskCount = 0;
  /** Of those, the ones leased to be rendered (render, or no render_strategy). */
  private heldRenderCount = 0;
  /** The pause after the latest empty answer that came back sooner than asked (0: none yet). */
  private emptyBackoffMs = 0;
  /**
   * The latest lease call failed (the scheduler may be down). The next call asks for an answer at
   * once instead of a held one: its answer is what proves the scheduler is back and ends the
   * retry pauses of the reports waiting in the outbox (PeerReachability) — a held call would keep
   * them waiting for up to `leaseWaitMs` more while their leases run out.
   */
  private isProbingScheduler = false;
  /** Aborted when shutdown starts: no more leases, waiting tasks give up. */
  private readonly leasing = new AbortController();
  /** Aborted when the shutdown's report budget is spent. */
  private readonly delivering = new AbortController();
  private wakeUp: () => void = () => undefined;
  private hasWarnedShortLease = false;
  private running: Promise<void> | undefined;

  private readonly client: SchedulerClient;
  private readonly fetcher: LeaseTaskFetcher;
  private readonly outbox: ReportOutbox;
  private readonly delivery: ReportDelivery;
  private readonly capacity: () => LeaseCapacity;
  private readonly settings: LeaseLoopSettings;
  private readonly metrics: DownloaderMetrics;
  private readonly logger: Logger;

  constructor(dependencies: LeaseLoopDependencies) {
    ({
      client: this.client,
      fetcher: this.fetcher,
      outbox: this.outbox,
      delivery: this.delivery,
      capacity: this.capacity,
      settings: this.settings,
      metrics: this.metrics,
      logger: this.logger,
    } = dependencies);
  }

  /** Tasks leased and not finished. */
  get heldCount(): number {
    return this.heldTaskCount;
  }

  /** Flushes the outbox left by an earlier run, then leases until stopped. */
  start(): void {
    this.running = this.flushOutbox()
      .then(() => this.leaseUntilStopped())
      .catch((error: unknown) => {
        if (!this.leasing.signal.aborted) this.logger.error({ err: error }, 'lease loop failed');
      });
  }

  /** Call when room may have appeared (max_concurrent_count raised). */
  roomChanged(): void {
    this.wakeUp();
  }

  /**
   * Graceful stop: no new lease; tasks still waiting for their domain give up (left out of the
   * report, so the scheduler re-queues them at once); renders in flight get `drainMs` to finish;
   * every lease is reported with what finished; what cannot be sent stays in the outbox.
   */
  async stop(): Promise<void> {
    this.leasing.abort();
    this.wakeUp();
    await this.running;
    const inFlight = [...this.active.values()].flatMap((active) => active.tasks);
    let drainTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(inFlight),
      new Promise((resolve) => (drainTimer = setTimeout(resolve, this.settings.drainMs))),
    ]);
    clearTimeout(drainTimer);
    const budget = setTimeout(() => this.delivering.abort(), this.settings.finalReportMs);
    try {
      await Promise.allSettled([...this.active.values()].map((active) => this.report(active)));
    } finally {
      clearTimeout(budget);
      this.delivering.abort();
    }
  }

  private async flushOutbox(): Promise<void> {
    const rows = await this.outbox.list();
    this.metrics.outboxDepth.set(rows.length);
    const mine = rows.filter((row) => row.worker_id === this.settings.workerId);
    if (mine.length < rows.length) {
      this.logger.warn(
        { other_worker_count: rows.length - mine.length, worker_id: this.settings.workerId },
        'outbox rows of other worker ids left untouched (a changed --worker-id?)',
      );
    }
    if (mine.length > 0) {
      this.logger.info({ outbox_row_count: mine.length }, 'sending reports left in the outbox');
    }
    for (const row of mine) {
      // A shutdown during the flush leaves the remaining rows for the next start.
      if ((await this.delivery.deliver(row, this.leasing.signal)) === 'aborted') return;
    }
  }

  private room(): number {
    const { pageCount, requestCount } = this.capacity();
    return Math.min(pageCount - this.heldRenderCount, requestCount - this.heldTaskCount);
  }

  private async leaseUntilStopped(): Promise<void> {
    const signal = this.leasing.signal;
    while (!signal.aborted) {
      const room = this.room();
      if (room <= 0) {
        await this.waitForRoom();
        continue;
      }
      let lease: LeaseResponse;
      const sentAtMs = Date.now();
      const waitMs = this.isProbingScheduler ? 0 : this.settings.leaseWaitMs;
      try {
        lease = await this.client.leaseTasks(
          {
            worker_id: this.settings.workerId,
            task_count: Math.min(this.settings.taskCount, room),
            lease_ttl_seconds: this.settings.leaseTtlSeconds,
            wait_ms: waitMs,
          },
          // A held call may last wait_ms; the answer still needs its own time on top.
          { signal, timeoutMs: waitMs + LEASE_ANSWER_MS },
        );
      } catch (error) {
        if (signal.aborted) return;
        this.metrics.leaseCallCount.inc({ result: 'failed' });
        this.logger.warn({ err: error }, 'lease call failed; trying again later');
        this.isProbingScheduler = true;
        await this.pause();
        continue;
      }
      this.isProbingScheduler = false;
      if (lease.task_list.length === 0) {
        this.metrics.leaseCallCount.inc({ result: 'empty' });
        // A probe's quick answer says nothing about long polling: the next call is held.
        if (waitMs === this.settings.leaseWaitMs) {
          await this.afterEmptyAnswer(Date.now() - sentAtMs);
        }
        continue;
      }
      this.emptyBackoffMs = 0;
      this.metrics.leaseCallCount.inc({ result: 'tasks' });
      try {
        await this.begin(lease, Date.now());
      } catch (error) {
        // Nothing was fetched: the scheduler reclaims the lease when it expires.
        this.logger
          .child({ lease_id: lease.lease_id })
          .error({ err: error }, 'lease could not be stored');
        await this.pause();
      }
    }
  }

  private async pause(milliseconds = this.settings.pollIntervalMs): Promise<void> {
    await sleep(milliseconds, this.leasing.signal).catch(() => undefined);
  }

  /**
   * An empty answer after the scheduler held the call (long polling): nothing became due within
   * `leaseWaitMs`, so ask again at once — the next task is leased the moment it is due. An empty
   * answer that came back sooner (a scheduler without long polling, or one that returns early)
   * must not make the loop spin: back off, 50 ms doubling up to 400 ms (or the poll interval).
   */
  private async afterEmptyAnswer(elapsedMs: number): Promise<void> {
    const { leaseWaitMs, pollIntervalMs } = this.settings;
    if (leaseWaitMs > 0 && elapsedMs >= leaseWaitMs / 2) {
      this.emptyBackoffMs = 0;
      return;
    }
    this.emptyBackoffMs = Math.min(
      pollIntervalMs,
      MAX_EMPTY_BACKOFF_MS,
      this.emptyBackoffMs === 0 ? MIN_EMPTY_BACKOFF_MS : 2 * this.emptyBackoffMs,
    );
    await this.pause(this.emptyBackoffMs);
  }

  /** Until a task finishes, the capacity changes, or a poll interval passed. */
  private async waitForRoom(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.settings.pollIntervalMs);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeUp = () => undefined;
  }

  private async begin(lease: LeaseResponse, receivedAtMs: number): Promise<void> {
    // The outbox row exists before anything is fetched: from here on a crash loses no result.
    await this.outbox.open(lease);
    this.metrics.outboxDepth.inc();
    this.metrics.leasedTaskCount.inc(lease.task_list.length);
    const localExpiryMs = receivedAtMs + this.settings.leaseTtlSeconds * 1000;
    const schedulerExpiryMs = Date.parse(lease.expires_at);
    // Whichever clock says "earlier" wins: a skewed clock must not make us report too late.
    const expiresAtMs = Number.isFinite(schedulerExpiryMs)
      ? Math.min(schedulerExpiryMs, localExpiryMs)
      : localExpiryMs;
    const active: ActiveLease = {
      lease,
      expiresAtMs,
      reportMarginMs: reportMarginOf(expiresAtMs - receivedAtMs, this.settings.maxReportMarginMs),
      remainingCount: lease.task_list.length,
      reporting: undefined,
      tasks: [],
      deadlineTimer: undefined,
    };
    // One slow task (a page pool busy with entry B, a hung page until its cut-off) must not make
    // the whole lease's report late — a stale report is applied to nothing. So the lease is
    // reported `reportMarginMs` before it expires with what has finished; tasks still running are
    // left out and the scheduler re-queues them at once.
    active.deadlineTimer = setTimeout(
      () => {
        if (!this.leasing.signal.aborted) void this.report(active);
      },
      Math.max(0, active.expiresAtMs - active.reportMarginMs - receivedAtMs),
    );
    active.deadlineTimer.unref();
    this.warnIfShorterThanTasks(active, receivedAtMs);
    this.active.set(lease.lease_id, active);
    this.heldTaskCount += lease.task_list.length;
    this.heldRenderCount += lease.task_list.filter(isLeasedToRender).length;
    this.logger.debug(
      { lease_id: lease.lease_id, task_count: lease.task_list.length },
      'lease received',
    );
    for (const task of lease.task_list) active.tasks.push(this.runTask(active, task));
  }

  /** A lease shorter than its tasks' timeout starts a task only when its domain is free at once. */
  private warnIfShorterThanTasks(active: ActiveLease, receivedAtMs: number): void {
    if (this.hasWarnedShortLease) return;
    const longestTimeoutMs = Math.max(...active.lease.task_list.map((task) => task.timeout_ms));
    const usableMs = active.expiresAtMs - active.reportMarginMs - receivedAtMs;
    if (longestTimeoutMs <= usableMs) return;
    this.hasWarnedShortLease = true;
    this.logger.warn(
      { lease_id: active.lease.lease_id, usable_ms: usableMs, timeout_ms: longestTimeoutMs },
      'lease shorter than its tasks may take: a task waits for its domain only if it can still finish in time (raise --lease-ttl-seconds)',
    );
  }

  private async runTask(active: ActiveLease, task: LeaseTask): Promise<void> {
    try {
      const fetched = await this.fetchTask(active, task);
      const result = reportResultOf(task, fetched.result, fetched.renderStrategy);
      if (result !== undefined && active.reporting === undefined) {
        await this.outbox.append(active.lease.lease_id, result);
      }
    } catch (error) {
      this.logger.error({ err: error, url: task.url }, 'task failed inside the downloader');
    } finally {
      active.remainingCount -= 1;
      this.heldTaskCount -= 1;
      if (isLeasedToRender(task)) this.heldRenderCount -= 1;
      this.wakeUp();
    }
    if (active.remainingCount === 0 && !this.leasing.signal.aborted) await this.report(active);
  }

  private fetchTask(active: ActiveLease, task: LeaseTask): Promise<LeaseTaskFetch> {
    // Waiting is cheaper than dropping, but a task that cannot finish before the lease expires
    // is left for the scheduler to re-queue instead of being rendered into a stale report.
    return this.fetcher.fetch(
      task,
      { kind: 'wait', untilMs: active.expiresAtMs - task.timeout_ms - active.reportMarginMs },
      this.leasing.signal,
    );
  }

  /** Reports what the outbox row holds for this lease; every call shares the one report. */
  private report(active: ActiveLease): Promise<void> {
    clearTimeout(active.deadlineTimer);
    active.reporting ??= this.deliverLease(active.lease.lease_id);
    return active.reporting;
  }

  private async deliverLease(leaseId: string): Promise<void> {
    try {
      await this.outbox.settled(leaseId);
      const row = await this.outbox.read(leaseId);
      if (row !== undefined) await this.delivery.deliver(row, this.delivering.signal);
    } catch (error) {
      this.logger.child({ lease_id: leaseId }).error({ err: error }, 'report not read; kept');
    } finally {
      this.active.delete(leaseId);
    }
  }
}
