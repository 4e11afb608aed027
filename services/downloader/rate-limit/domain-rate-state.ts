import { isPaused, type PolitenessSettings, type PolitenessState } from './politeness-backoff';
import type { HoldReason, IntervalSource, RateLimitState } from './rate-limit-vocabulary';
import { WindowCounter } from './window-counter';

/**
 * When one request reached (or at the latest reaches) the origin: the next request's interval
 * counts from here. Infinite while the request is granted but not yet sent; then provisional —
 * dispatch + arrival bound — until the origin's first answer proves an earlier arrival.
 */
export interface SpacingStamp {
  fromMs: number;
}

/**
 * One domain's row of the rate-limit layer, in memory (authoritative while the process runs;
 * `downloader:domain_runtime:{domain}` is its write-behind copy).
 */
export interface DomainRateState {
  readonly domain: string;
  /** The interval of the last request sent and where it came from (recorded, never lowered by us). */
  minIntervalMs: number;
  intervalSource: IntervalSource;
  /** When the last request was dispatched (`last_request_at`). */
  lastRequestAtMs: number | null;
  /** The latest arrival of the requests that finished. */
  settledSpacingFromMs: number | null;
  /** Stamps of the requests granted and not finished. */
  readonly pendingStamps: Set<SpacingStamp>;
  inFlightCount: number;
  politeness: PolitenessState;
  /** Last time this domain's own limits held a request back (rate_limit_state over_limit). */
  lastHeldBackAtMs: number | null;
  readonly counter: WindowCounter;
}

export interface DomainLimits extends PolitenessSettings {
  readonly domainInFlightCap: number;
  /**
   * How long after its dispatch a request is assumed to have reached the origin when no answer
   * has come yet (slow first byte). An answer proves the arrival earlier and replaces it.
   */
  readonly arrivalBoundMs: number;
}

export interface DomainHold {
  readonly reason: Exclude<HoldReason, 'concurrency' | 'stopping'>;
  /** When the hold ends by itself; undefined when it ends only as requests finish. */
  readonly readyAtMs: number | undefined;
}

export function newDomainRateState(
  domain: string,
  minIntervalMs: number,
  intervalSource: IntervalSource,
): DomainRateState {
  return {
    domain,
    minIntervalMs,
    intervalSource,
    lastRequestAtMs: null,
    settledSpacingFromMs: null,
    pendingStamps: new Set(),
    inFlightCount: 0,
    politeness: { consecutiveErrorCount: 0, backoffUntilMs: null, lastFailReason: null },
    lastHeldBackAtMs: null,
    counter: new WindowCounter(),
  };
}

/** The latest moment any earlier request reached (or may reach) the origin; null before the first. */
export function spacingFromOf(state: DomainRateState): number | null {
  let fromMs = state.settledSpacingFromMs;
  for (const stamp of state.pendingStamps) fromMs = Math.max(fromMs ?? -Infinity, stamp.fromMs);
  return fromMs;
}

/**
 * What keeps a request with `minIntervalMs` from starting now, if anything. Each request is
 * spaced by the interval it brings (the contract forbids taking a max or lowering it), counted
 * from the latest arrival of the earlier requests at the origin; backoff and pause only add to it.
 */
export function domainHoldOf(
  state: DomainRateState,
  minIntervalMs: number,
  nowMs: number,
  limits: DomainLimits,
): DomainHold | undefined {
  const backoffUntilMs = state.politeness.backoffUntilMs ?? 0;
  const spacingFromMs = spacingFromOf(state);
  // A request that brings no interval needs no spacing: only the in-flight cap and backoff hold it.
  const isSpaced = minIntervalMs > 0;
  if (spacingFromMs === Number.POSITIVE_INFINITY && isSpaced) {
    // An earlier request was granted but has not left yet: wait until it does.
    return { reason: 'interval', readyAtMs: undefined };
  }
  const intervalReadyAtMs = spacingFromMs === null || !isSpaced ? 0 : spacingFromMs + minIntervalMs;
  const readyAtMs = Math.max(backoffUntilMs, intervalReadyAtMs);
  if (readyAtMs > nowMs) {
    const reason =
      backoffUntilMs > nowMs
        ? isPaused(state.politeness, nowMs, limits)
          ? 'paused'
          : 'backing_off'
        : 'interval';
    return { reason, readyAtMs };
  }
  if (state.inFlightCount >= limits.domainInFlightCap) {
    return { reason: 'domain_in_flight', readyAtMs: undefined };
  }
  return undefined;
}

/**
 * CONTRACT.md enum rate_limit_state, as the operator page shows it. `over_limit` stays visible
 * for the domain's interval after a request was held back (at least a second, so a person sees it).
 */
export function rateLimitStateOf(
  state: DomainRateState,
  nowMs: number,
  limits: DomainLimits,
): RateLimitState {
  const backoffUntilMs = state.politeness.backoffUntilMs;
  if (backoffUntilMs !== null && backoffUntilMs > nowMs) {
    return isPaused(state.politeness, nowMs, limits) ? 'paused' : 'backing_off';
  }
  const heldBackAtMs = state.lastHeldBackAtMs;
  if (heldBackAtMs !== null && nowMs - heldBackAtMs <= Math.max(state.minIntervalMs, 1000)) {
    return 'over_limit';
  }
  return 'normal';
}
