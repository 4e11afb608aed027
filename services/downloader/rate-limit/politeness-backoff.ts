import { backoffCeiling } from '../../common/backoff/exponential-backoff';
import type { FailReason } from '../rendering/render-outcome';

/**
 * Politeness backoff (CONTRACT.md §五, seed 003 §4.4): after the k-th consecutive 5xx, timeout or
 * origin 429 a domain is held back `base · 2^k` (capped); at `pauseAfterErrorCount` errors in a
 * row it is paused. Any answered request resets it. It only ever lengthens waits: the interval
 * check still applies on top of it, and a new hold never ends earlier than one already running.
 */
export interface PolitenessSettings {
  readonly backoffBaseMs: number;
  readonly backoffCapMs: number;
  readonly pauseAfterErrorCount: number;
  readonly pauseMs: number;
}

export interface PolitenessState {
  readonly consecutiveErrorCount: number;
  /** Until when requests are held back; null when none. */
  readonly backoffUntilMs: number | null;
  /** The error that caused the hold: what entry A reports for a task it cannot wait for. */
  readonly lastFailReason: FailReason | null;
}

export const CLEAR_POLITENESS: PolitenessState = {
  consecutiveErrorCount: 0,
  backoffUntilMs: null,
  lastFailReason: null,
};

/** How the origin answered one request, as far as politeness is concerned. */
export type OriginVerdict =
  /** 5xx, a timeout, or 429: count it and back off. */
  | { kind: 'origin_error'; failReason: FailReason }
  /** The origin answered (2xx–4xx, 304): the streak is over. */
  | { kind: 'origin_answered' }
  /** Says nothing about the origin (our browser crashed, a connection never opened, …). */
  | { kind: 'no_verdict' };

export function holdDurationMs(
  consecutiveErrorCount: number,
  settings: PolitenessSettings,
): number {
  const backoffMs = backoffCeiling(
    { initial: settings.backoffBaseMs, cap: settings.backoffCapMs },
    consecutiveErrorCount,
  );
  return consecutiveErrorCount >= settings.pauseAfterErrorCount
    ? Math.max(settings.pauseMs, backoffMs)
    : backoffMs;
}

export function nextPolitenessState(
  state: PolitenessState,
  verdict: OriginVerdict,
  nowMs: number,
  settings: PolitenessSettings,
): PolitenessState {
  switch (verdict.kind) {
    case 'no_verdict':
      return state;
    case 'origin_answered':
      return CLEAR_POLITENESS;
    case 'origin_error': {
      const count = state.consecutiveErrorCount + 1;
      const holdUntilMs = nowMs + holdDurationMs(count, settings);
      return {
        consecutiveErrorCount: count,
        backoffUntilMs: Math.max(state.backoffUntilMs ?? 0, holdUntilMs),
        lastFailReason: verdict.failReason,
      };
    }
  }
}

/** Paused = the streak reached the pause threshold and its hold is still running. */
export function isPaused(
  state: PolitenessState,
  nowMs: number,
  settings: PolitenessSettings,
): boolean {
  return (
    state.consecutiveErrorCount >= settings.pauseAfterErrorCount &&
    state.backoffUntilMs !== null &&
    state.backoffUntilMs > nowMs
  );
}
