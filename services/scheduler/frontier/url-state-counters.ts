import type { PlacedChange, UrlTaskChangeListener } from './frontier-store';
import { URL_STATES, type UrlState } from './wire-types';

/**
 * URLs per url_state as the frontier sees them (a URL held by a live lease is leased), kept in
 * memory so the operator view never scans the frontier. Set at start-up, then moved by every
 * staged change.
 */
export class UrlStateCounters implements UrlTaskChangeListener {
  readonly #counts = new Map<UrlState, number>(URL_STATES.map((state) => [state, 0]));

  onUrlTaskChanged({ previous, next }: PlacedChange): void {
    if (previous?.url_state === next.url_state) return;
    if (previous !== undefined) this.#add(previous.url_state, -1);
    this.#add(next.url_state, 1);
  }

  /** Start-up from per-domain counts: `count` URLs in `state`. */
  addLoaded(state: UrlState, count: number): void {
    this.#add(state, count);
  }

  countOf(state: UrlState): number {
    return this.#counts.get(state) ?? 0;
  }

  #add(state: UrlState, delta: number): void {
    this.#counts.set(state, Math.max(0, (this.#counts.get(state) ?? 0) + delta));
  }
}
