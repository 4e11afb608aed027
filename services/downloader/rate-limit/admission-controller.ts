import type { FailReason } from '../rendering/render-outcome';
import {
  domainHoldOf,
  newDomainRateState,
  type DomainHold,
  type DomainLimits,
  type DomainRateState,
  type SpacingStamp,
} from './domain-rate-state';
import { nextPolitenessState, type OriginVerdict } from './politeness-backoff';
import type { EntryName, HoldReason, IntervalSource } from './rate-limit-vocabulary';
import { WindowCounter } from './window-counter';

export interface AdmissionSettings extends DomainLimits {
  /** The global brake at start (the operator endpoint changes it live). */
  readonly maxConcurrentCount: number;
  /**
   * Entries that cannot wait (B, C) whose domain is free may still queue this long for a global
   * permit: without it, a lease loop keeping every permit busy would starve them.
   */
  readonly brakeWaitMs: number;
}

export interface AdmissionRequest {
  readonly domain: string;
  /** The interval this request brings; it spaces this request and is recorded for the domain. */
  readonly minIntervalMs: number;
  readonly intervalSource: IntervalSource;
  readonly entryName: EntryName;
  /** Entry A: queue until granted, but not past this time. Absent: decide now (entries B, C). */
  readonly waitUntilMs?: number;
  /**
   * The page fetch right after a robots.txt fetch the same caller request made: its wait is that
   * request's own spacing, not an over-limit event of its entry.
   */
  readonly isFollowUp?: boolean;
  readonly signal?: AbortSignal;
}

export interface HeldBack {
  readonly isGranted: false;
  readonly holdReason: HoldReason;
  /** How long until the domain's own hold ends; undefined when it ends only as requests finish. */
  readonly retryAfterMs: number | undefined;
  /** For backing_off and paused: the origin error behind it. */
  readonly lastFailReason: FailReason | null;
}

export interface Granted {
  readonly isGranted: true;
  readonly slot: DomainSlot;
}

export type AdmissionDecision = Granted | HeldBack;

/** Hooks for the write-behind store, metrics and logs; none may throw. */
export interface AdmissionEvents {
  domainChanged?(domain: string): void;
  heldBack?(request: AdmissionRequest, decision: HeldBack): void;
  politenessChanged?(state: DomainRateState, verdict: OriginVerdict): void;
}

interface Waiter {
  readonly request: AdmissionRequest;
  /** B and C queue only for a global permit; their domain must stay free meanwhile. */
  readonly isImmediate: boolean;
  readonly deadlineMs: number;
  readonly settle: (decision: AdmissionDecision) => void;
  isDone: boolean;
}

/**
 * The per-domain rate-limit layer shared by all three entries, plus the global
 * `max_concurrent_count` brake. A grant takes both at once — a domain slot and a global permit —
 * so nothing holds one while waiting for the other.
 *
 * A domain is free when its interval has passed since the earlier requests reached the origin
 * (each request brings its own `min_interval_ms`), no politeness backoff or pause runs, and fewer
 * than `domainInFlightCap` of its requests are in flight. "Reached" is proven by the origin's first
 * answer; until it comes, a request counts as arriving up to `arrivalBoundMs` after its dispatch.
 * So the origin never sees two starts closer than the interval, however long a request took to
 * leave (a page to free up, a browser to relaunch, a cold process). Waiters are served in
 * arrival order per domain; a waiter whose domain is busy never blocks another domain's waiter.
 * Entry A waits (up to its deadline); entries B and C are answered at once, except that a free
 * domain may queue briefly for a global permit.
 */
export class AdmissionController {
  private readonly domains = new Map<string, DomainRateState>();
  private readonly queue: Waiter[] = [];
  private readonly globalCounter = new WindowCounter();
  private globalInFlightCount = 0;
  private maxConcurrent: number;
  private timer: NodeJS.Timeout | undefined;
  private timerAtMs = Infinity;
  private isClosed = false;

  constructor(
    private readonly settings: AdmissionSettings,
    private readonly events: AdmissionEvents = {},
    private readonly now: () => number = Date.now,
  ) {
    this.maxConcurrent = settings.maxConcurrentCount;
  }

  get limits(): DomainLimits {
    return this.settings;
  }

  get maxConcurrentCount(): number {
    return this.maxConcurrent;
  }

  get inFlightCount(): number {
    return this.globalInFlightCount;
  }

  /** Global permits free now. */
  get freePermitCount(): number {
    return Math.max(0, this.maxConcurrent - this.globalInFlightCount);
  }

  /** Takes effect at once; lowering it never stops a request in flight, it only holds new ones. */
  setMaxConcurrentCount(count: number): void {
    this.maxConcurrent = count;
    this.pump();
  }

  /** Requests sent and held back per entry over the window, all domains. */
  get counter(): WindowCounter {
    return this.globalCounter;
  }

  domainState(domain: string): DomainRateState | undefined {
    return this.domains.get(domain);
  }

  /** Every domain the layer knows, in domain order. */
  domainStates(): DomainRateState[] {
    return [...this.domains.values()].sort((left, right) =>
      left.domain < right.domain ? -1 : left.domain > right.domain ? 1 : 0,
    );
  }

  /**
   * Puts back a domain read from storage (before traffic starts). The stored row is written behind,
   * up to a flush interval late, so a request sent just before a crash may be missing from it: the
   * restored domain's spacing therefore counts from now at the earliest — after a restart each known
   * domain waits one interval before its first request, never less.
   */
  restore(state: DomainRateState): void {
    state.settledSpacingFromMs = Math.max(state.settledSpacingFromMs ?? 0, this.now());
    this.domains.set(state.domain, state);
    for (const bucket of state.counter.liveBuckets(this.now())) this.globalCounter.merge(bucket);
  }

  /** Forgets domains with nothing left to show or enforce (idle for a whole window). */
  evictIdle(): string[] {
    const nowMs = this.now();
    const evicted: string[] = [];
    for (const state of this.domains.values()) {
      const isIdle =
        state.inFlightCount === 0 &&
        (state.politeness.backoffUntilMs ?? 0) <= nowMs &&
        (state.settledSpacingFromMs ?? 0) + state.minIntervalMs < nowMs &&
        state.counter.isEmpty(nowMs) &&
        !this.queue.some((waiter) => waiter.request.domain === state.domain);
      if (isIdle) evicted.push(state.domain);
    }
    for (const domain of evicted) this.domains.delete(domain);
    return evicted;
  }

  admit(request: AdmissionRequest): Promise<AdmissionDecision> {
    if (this.isClosed || request.signal?.aborted) {
      return Promise.resolve(this.heldBack(request, 'stopping', undefined));
    }
    const nowMs = this.now();
    const state = this.stateOf(request);
    const hold = this.holdFor(state, request, nowMs);
    const isImmediate = request.waitUntilMs === undefined;
    if (hold === undefined && this.globalInFlightCount < this.maxConcurrent) {
      return Promise.resolve(this.grant(state, request));
    }
    if (hold !== undefined && (isImmediate || this.cannotWaitFor(hold, request))) {
      return Promise.resolve(this.holdBackByDomain(state, request, hold, nowMs));
    }
    const deadlineMs = isImmediate
      ? nowMs + this.settings.brakeWaitMs
      : (request.waitUntilMs as number);
    if (!isImmediate && request.isFollowUp !== true) {
      // Entry A's over-limit behaviour (delay_execution) happens now: count it once.
      this.recordHeldBack(state, request, hold?.reason ?? 'concurrency', nowMs);
    }
    return new Promise<AdmissionDecision>((resolve) => {
      const waiter: Waiter = {
        request,
        isImmediate,
        deadlineMs,
        isDone: false,
        settle: (decision) => {
          if (waiter.isDone) return;
          waiter.isDone = true;
          request.signal?.removeEventListener('abort', onAbort);
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          resolve(decision);
        },
      };
      const onAbort = () => {
        waiter.settle(this.heldBack(request, 'stopping', undefined));
        this.pump();
      };
      request.signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.armTimer(nowMs);
    });
  }

  /** Answers every waiter with `stopping` and refuses new requests. */
  close(): void {
    this.isClosed = true;
    clearTimeout(this.timer);
    for (const waiter of [...this.queue]) {
      waiter.settle(this.heldBack(waiter.request, 'stopping', undefined));
    }
  }

  /** Called by a slot: the request left. Records its start and its interval. */
  dispatched(state: DomainRateState, request: AdmissionRequest, stamp: SpacingStamp): void {
    const nowMs = this.now();
    stamp.fromMs = nowMs + this.settings.arrivalBoundMs;
    state.lastRequestAtMs = Math.max(state.lastRequestAtMs ?? 0, nowMs);
    state.minIntervalMs = request.minIntervalMs;
    state.intervalSource = request.intervalSource;
    state.counter.addRequest(nowMs);
    this.globalCounter.addRequest(nowMs);
    this.events.domainChanged?.(state.domain);
    // Waiters held by this request's unknown departure now get a time to wait for.
    this.pump();
  }

  /** Called by a slot: the origin answered, so the request reached it by now. */
  answered(stamp: SpacingStamp): void {
    const nowMs = this.now();
    if (nowMs >= stamp.fromMs) return;
    stamp.fromMs = nowMs;
    this.pump();
  }

  /**
   * Called by a slot when its request finished. A request that never left gives its reservation
   * back: it changed nothing at the origin, so it changes no spacing.
   */
  released(
    state: DomainRateState,
    stamp: SpacingStamp,
    verdict: OriginVerdict,
    wasDispatched: boolean,
  ): void {
    state.pendingStamps.delete(stamp);
    if (wasDispatched) {
      // Finished means answered or given up: by now it arrived, if it ever will.
      const arrivedByMs = Math.min(stamp.fromMs, this.now());
      state.settledSpacingFromMs = Math.max(state.settledSpacingFromMs ?? 0, arrivedByMs);
    }
    state.inFlightCount = Math.max(0, state.inFlightCount - 1);
    this.globalInFlightCount = Math.max(0, this.globalInFlightCount - 1);
    const before = state.politeness;
    state.politeness = nextPolitenessState(before, verdict, this.now(), this.settings);
    if (state.politeness !== before) this.events.politenessChanged?.(state, verdict);
    this.events.domainChanged?.(state.domain);
    this.pump();
  }

  private stateOf(request: AdmissionRequest): DomainRateState {
    let state = this.domains.get(request.domain);
    if (state === undefined) {
      state = newDomainRateState(request.domain, request.minIntervalMs, request.intervalSource);
      this.domains.set(request.domain, state);
    }
    return state;
  }

  /** The domain's own hold, or — when an earlier waiter has the domain's turn — an interval hold. */
  private holdFor(
    state: DomainRateState,
    request: AdmissionRequest,
    nowMs: number,
  ): DomainHold | undefined {
    const hold = domainHoldOf(state, request.minIntervalMs, nowMs, this.settings);
    if (hold !== undefined) return hold;
    const isQueuedAhead = this.queue.some((waiter) => waiter.request.domain === request.domain);
    return isQueuedAhead
      ? { reason: 'interval', readyAtMs: nowMs + request.minIntervalMs + 1 }
      : undefined;
  }

  /** A waiting entry whose domain is held past its deadline is answered at once. */
  private cannotWaitFor(hold: DomainHold, request: AdmissionRequest): boolean {
    return hold.readyAtMs !== undefined && hold.readyAtMs > (request.waitUntilMs as number);
  }

  private grant(state: DomainRateState, request: AdmissionRequest): Granted {
    // Reserved from the grant: until this request has left (a page may still have to free up, a
    // name still be resolved) its arrival is unknown, so nobody else to this domain starts.
    const stamp: SpacingStamp = { fromMs: Number.POSITIVE_INFINITY };
    state.pendingStamps.add(stamp);
    state.inFlightCount += 1;
    this.globalInFlightCount += 1;
    this.events.domainChanged?.(state.domain);
    return { isGranted: true, slot: new DomainSlot(this, state, request, stamp) };
  }

  private holdBackByDomain(
    state: DomainRateState,
    request: AdmissionRequest,
    hold: DomainHold,
    nowMs: number,
    shouldCount = true,
  ): HeldBack {
    if (shouldCount) this.recordHeldBack(state, request, hold.reason, nowMs);
    const retryAfterMs = hold.readyAtMs === undefined ? undefined : hold.readyAtMs - nowMs;
    return this.heldBack(request, hold.reason, retryAfterMs, state.politeness.lastFailReason);
  }

  private recordHeldBack(
    state: DomainRateState,
    request: AdmissionRequest,
    reason: HoldReason,
    nowMs: number,
  ): void {
    if (reason === 'stopping') return;
    state.counter.addOverLimit(request.entryName, nowMs);
    this.globalCounter.addOverLimit(request.entryName, nowMs);
    if (reason !== 'concurrency') state.lastHeldBackAtMs = nowMs;
    this.events.domainChanged?.(state.domain);
  }

  private heldBack(
    request: AdmissionRequest,
    holdReason: HoldReason,
    retryAfterMs: number | undefined,
    lastFailReason: FailReason | null = null,
  ): HeldBack {
    const decision: HeldBack = { isGranted: false, holdReason, retryAfterMs, lastFailReason };
    this.events.heldBack?.(request, decision);
    return decision;
  }

  /** Serves waiters in arrival order; a domain's later waiters wait for its first one. */
  private pump(): void {
    if (this.isClosed) return;
    const nowMs = this.now();
    const domainsWithTurn = new Set<string>();
    for (const waiter of [...this.queue]) {
      if (waiter.isDone) continue;
      const { request } = waiter;
      const state = this.stateOf(request);
      const hasTurn = !domainsWithTurn.has(request.domain);
      domainsWithTurn.add(request.domain);
      const hold = hasTurn
        ? domainHoldOf(state, request.minIntervalMs, nowMs, this.settings)
        : ({ reason: 'interval', readyAtMs: undefined } as const);
      if (hold === undefined && this.globalInFlightCount < this.maxConcurrent) {
        waiter.settle(this.grant(state, request));
      } else if (hold !== undefined && waiter.isImmediate) {
        // B or C queued for a permit, and meanwhile someone else took its domain.
        waiter.settle(this.holdBackByDomain(state, request, hold, nowMs));
      } else if (waiter.deadlineMs <= nowMs || (hold && this.cannotWaitFor(hold, request))) {
        // Entry A counted its delay when it queued; B and C count the answer they now give.
        waiter.settle(
          hold === undefined
            ? this.expireOnBrake(state, request, nowMs, waiter.isImmediate)
            : this.holdBackByDomain(state, request, hold, nowMs, waiter.isImmediate),
        );
      }
    }
    this.armTimer(nowMs);
  }

  private expireOnBrake(
    state: DomainRateState,
    request: AdmissionRequest,
    nowMs: number,
    isImmediate: boolean,
  ): HeldBack {
    if (isImmediate) this.recordHeldBack(state, request, 'concurrency', nowMs);
    return this.heldBack(request, 'concurrency', undefined);
  }

  /** One timer for the earliest moment a waiter's domain frees up or a waiter's deadline passes. */
  private armTimer(nowMs: number): void {
    let wakeAtMs = Infinity;
    const seen = new Set<string>();
    for (const waiter of this.queue) {
      wakeAtMs = Math.min(wakeAtMs, waiter.deadlineMs);
      if (seen.has(waiter.request.domain)) continue;
      seen.add(waiter.request.domain);
      const state = this.domains.get(waiter.request.domain);
      const hold = state && domainHoldOf(state, waiter.request.minIntervalMs, nowMs, this.settings);
      if (hold?.readyAtMs !== undefined) wakeAtMs = Math.min(wakeAtMs, hold.readyAtMs);
    }
    if (wakeAtMs === this.timerAtMs) return;
    clearTimeout(this.timer);
    this.timerAtMs = wakeAtMs;
    if (wakeAtMs === Infinity) return;
    this.timer = setTimeout(
      () => {
        this.timerAtMs = Infinity;
        this.pump();
      },
      Math.max(0, wakeAtMs - nowMs),
    );
    // The server keeps the process alive; a wake-up alone must not.
    this.timer.unref();
  }
}

/**
 * One granted request: it holds a domain slot and a global permit until released. `dispatched()`
 * marks the moment the request left (`last_request_at`; its interval is recorded), `answered()` the
 * origin's first answer, `release()` hands the outcome to the politeness backoff. All idempotent.
 */
export class DomainSlot {
  private isDispatched = false;
  private isAnswered = false;
  private isReleased = false;

  constructor(
    private readonly controller: AdmissionController,
    private readonly state: DomainRateState,
    private readonly request: AdmissionRequest,
    private readonly stamp: SpacingStamp,
  ) {}

  get domain(): string {
    return this.state.domain;
  }

  get entryName(): EntryName {
    return this.request.entryName;
  }

  get hasDispatched(): boolean {
    return this.isDispatched;
  }

  dispatched(): void {
    if (this.isDispatched || this.isReleased) return;
    this.isDispatched = true;
    this.controller.dispatched(this.state, this.request, this.stamp);
  }

  answered(): void {
    if (!this.isDispatched || this.isAnswered || this.isReleased) return;
    this.isAnswered = true;
    this.controller.answered(this.stamp);
  }

  release(verdict: OriginVerdict): void {
    if (this.isReleased) return;
    this.isReleased = true;
    this.controller.released(
      this.state,
      this.stamp,
      this.isDispatched ? verdict : { kind: 'no_verdict' },
      this.isDispatched,
    );
  }
}
