import type { UrlTaskDocument } from './frontier-documents';
import type { UrlTaskChangeListener } from './frontier-store';
import { URL_STATES, type UrlState } from './wire-types';

/**
 * URLs per url_state, kept in memory so the operator view never scans the frontier. Counted once
 * from url_task at start-up, then moved by every committed change.
 */
export class UrlStateCounters implements UrlTaskChangeListener {
  readonly #counts = new Map<UrlState, number>(URL_STATES.map((state) => [state, 0]));

  onUrlTaskChanged(previous: UrlTaskDocument | undefined, next: UrlTaskDocument): void {
    if (previous?.url_state === next.url_state) return;
    if (previous !== undefined) this.#add(previous.url_state, -1);
    this.#add(next.url_state, 1);
  }

  countLoaded(task: UrlTaskDocument): void {
    this.#add(task.url_state, 1);
  }

  countOf(state: UrlState): number {
    return this.#counts.get(state) ?? 0;
  }

  #add(state: UrlState, delta: number): void {
    this.#counts.set(state, Math.max(0, (this.#counts.get(state) ?? 0) + delta));
  }
}
