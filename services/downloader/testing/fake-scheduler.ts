import { randomBytes } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import {
  createSchedulerRouter,
  schedulerOperationIds,
  type components,
  type SchedulerHandlers,
} from '../../../generated/scheduler';
import { ContractError } from '../../common/contract-runtime/contract-error';
import { fakeRouterOptions, notImplementedHandlers } from '../../common/testing/fake-peer';
import { listenOnLoopback } from '../../common/testing/listen-on-loopback';
import { normalizeUrl } from '../../common/url/normalize-url';
import { urlHash } from '../../common/url/url-hash';

export type LeaseTask = components['schemas']['LeaseTask'];
export type ReportRequest = components['schemas']['ReportRequest'];
export type ReportResult = components['schemas']['ReportResult'];

export const FAKE_SCHEDULER_TOKEN = 'fake-scheduler-token-0123456789ab';

export interface LeaseCall {
  readonly worker_id: string;
  readonly task_count: number;
  readonly lease_ttl_seconds: number;
  readonly wait_ms: number;
  readonly lease_id: string;
  readonly leased_count: number;
  /** url_hash of every task handed out. */
  readonly url_hash_list: readonly string[];
}

export interface FakeScheduler {
  readonly url: string;
  /** Tasks handed out in order by GET /v1/lease (the test pushes). */
  readonly queue: LeaseTask[];
  readonly leaseCalls: LeaseCall[];
  /** Every POST /v1/report answered with success, repeats included. */
  readonly reports: ReportRequest[];
  /** The lease id of every POST /v1/report received, failed ones included. */
  readonly reportAttempts: string[];
  /** Errors answered to the next report calls, one each, before answering normally. */
  readonly reportFailures: Array<{
    status: number;
    errorCode:
      'service_unavailable' | 'lease_worker_mismatch' | 'invalid_token' | 'payload_too_large';
  }>;
  /**
   * When set, leases expire this many seconds after they are handed out, whatever
   * lease_ttl_seconds asked (a real scheduler's clock may run ahead of the downloader's).
   */
  leaseLifetimeSeconds: number | undefined;
  /** True (default): an empty lease call is held up to its wait_ms; false plays a scheduler of the
   * contract before long polling, which answers at once. */
  isLongPolling: boolean;
  /** task_count of every lease call held right now (long polling, nothing queued yet). */
  readonly heldCallTaskCounts: Set<{ readonly taskCount: number }>;
  /** When each lease's first report was acknowledged (epoch ms). */
  readonly acknowledgedAtMs: Map<string, number>;
  /** When each lease handed out expires, its `expires_at` (epoch ms). */
  readonly expiresAtMs: Map<string, number>;
  /** Reports received for a lease id. */
  reportsOf(leaseId: string): ReportRequest[];
  /** An outage: the port closes (connections refused) until bringBack() listens on it again. */
  takeDown(): Promise<void>;
  bringBack(): Promise<void>;
  close(): Promise<void>;
}

/** A lease task for `url` as the scheduler would send it; tests override what they need. */
export function leaseTaskFor(url: string, overrides: Partial<LeaseTask> = {}): LeaseTask {
  const normalized = normalizeUrl(url);
  return {
    url: normalized,
    url_hash: urlHash(normalized),
    domain: new URL(normalized).hostname,
    min_interval_ms: 0,
    wait_selector: null,
    timeout_ms: 10_000,
    priority_rank: 0,
    etag: null,
    last_modified_at: null,
    ...overrides,
  };
}

/**
 * The scheduler's lease and report edges exactly as the contract defines them (the generated
 * router: auth, validation, error bodies), answered from a queue the test fills and recording
 * every report. The real scheduler is another service; this stands in for it on loopback.
 */
export async function startFakeScheduler(): Promise<FakeScheduler> {
  const queue: LeaseTask[] = [];
  const leaseCalls: LeaseCall[] = [];
  const reports: ReportRequest[] = [];
  const reportAttempts: string[] = [];
  const reportFailures: FakeScheduler['reportFailures'] = [];
  const leased = new Map<string, number>();
  const acknowledgedAtMs = new Map<string, number>();
  const expiresAtMs = new Map<string, number>();
  let isClosed = false;
  const fake: FakeScheduler & { url: string; close: () => Promise<void> } = {
    url: '',
    queue,
    leaseCalls,
    reports,
    reportAttempts,
    reportFailures,
    acknowledgedAtMs,
    expiresAtMs,
    leaseLifetimeSeconds: undefined,
    isLongPolling: true,
    heldCallTaskCounts: new Set(),
    reportsOf: (leaseId) => reports.filter((report) => report.lease_id === leaseId),
    takeDown: async () => undefined,
    bringBack: async () => undefined,
    close: async () => undefined,
  };
  // Every operation the contract has (it grows) answers 501; the fake plays lease and report.
  const unused = notImplementedHandlers<SchedulerHandlers>(schedulerOperationIds);
  const handlers: SchedulerHandlers = {
    ...unused,
    leaseTasks: async ({ query }) => {
      const taskCount = query.task_count ?? 50;
      const ttlSeconds = query.lease_ttl_seconds ?? 120;
      const taskList = queue.splice(0, taskCount);
      const leaseId = `l-${randomBytes(8).toString('hex')}`;
      leased.set(leaseId, taskList.length);
      leaseCalls.push({
        worker_id: query.worker_id,
        task_count: taskCount,
        lease_ttl_seconds: ttlSeconds,
        wait_ms: query.wait_ms ?? 0,
        lease_id: leaseId,
        leased_count: taskList.length,
        url_hash_list: taskList.map((task) => task.url_hash),
      });
      const expiresAt = new Date(Date.now() + (fake.leaseLifetimeSeconds ?? ttlSeconds) * 1000)
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z');
      expiresAtMs.set(leaseId, Date.parse(expiresAt));
      return {
        lease_id: leaseId,
        worker_id: query.worker_id,
        expires_at: expiresAt,
        task_list: taskList,
      };
    },
    reportLease: async ({ body }) => {
      reportAttempts.push(body.lease_id);
      const failure = reportFailures.shift();
      if (failure !== undefined) {
        throw new ContractError(failure.status, failure.errorCode, 'scripted failure of the fake');
      }
      reports.push(body);
      if (!acknowledgedAtMs.has(body.lease_id)) acknowledgedAtMs.set(body.lease_id, Date.now());
      const taskCount = leased.get(body.lease_id) ?? body.result_list.length;
      return {
        lease_id: body.lease_id,
        is_stale_lease: false,
        accepted_count: body.result_list.length,
        requeued_count: Math.max(0, taskCount - body.result_list.length),
      };
    },
  };
  const app = express();
  app.get('/v1/lease', holdWhileNothingIsQueued);
  app.use(createSchedulerRouter(handlers, fakeRouterOptions('scheduler', FAKE_SCHEDULER_TOKEN)));
  let listening = await listenOnLoopback(app);
  const port = Number(new URL(listening.url).port);
  fake.url = listening.url;
  fake.close = () => {
    isClosed = true; // ends calls still held
    return listening.close();
  };

  /**
   * Long polling, the simple way a fake may do it, in front of the router: a lease call waits
   * until the test queues a task or its wait_ms passes. A call whose client went away (a killed
   * downloader) is never answered, so it cannot take tasks nobody will report.
   */
  async function holdWhileNothingIsQueued(
    request: Request,
    response: Response,
    next: NextFunction,
  ) {
    const waitMs = Number(request.query.wait_ms ?? 0);
    const holdUntilMs = Date.now() + (fake.isLongPolling && Number.isFinite(waitMs) ? waitMs : 0);
    let isClientGone = false;
    response.once('close', () => (isClientGone = true));
    const held = { taskCount: Number(request.query.task_count ?? 50) };
    fake.heldCallTaskCounts.add(held);
    while (queue.length === 0 && Date.now() < holdUntilMs && !isClosed && !isClientGone) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    fake.heldCallTaskCounts.delete(held);
    if (!isClientGone) next();
  }
  fake.takeDown = () => listening.close();
  fake.bringBack = async () => {
    listening = await listenOnLoopback(app, port);
  };
  return fake;
}
