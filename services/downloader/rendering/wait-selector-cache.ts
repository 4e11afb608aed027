import type { CDPSession } from 'puppeteer-core';
import { isValidSelector } from './page-snapshot';

/** Enough for every rule's wait_selector; cleared when full rather than tracking recency. */
const MAX_CACHED_SELECTORS = 1024;

/**
 * Whether a wait_selector is valid CSS, as Chromium itself parses it (a Node-side parser would
 * disagree on newer syntax), remembered per selector: rules hand out a handful of selectors over
 * and over, so the check costs one CDP round trip per selector, not per render.
 */
export class WaitSelectorCache {
  private readonly validity = new Map<string, boolean>();

  known(selector: string): boolean | undefined {
    return this.validity.get(selector);
  }

  async check(session: CDPSession, selector: string): Promise<boolean> {
    const known = this.validity.get(selector);
    if (known !== undefined) return known;
    const isValid = await isValidSelector(session, selector);
    if (this.validity.size >= MAX_CACHED_SELECTORS) this.validity.clear();
    this.validity.set(selector, isValid);
    return isValid;
  }
}
