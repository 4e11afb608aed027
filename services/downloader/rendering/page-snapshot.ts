import type { CDPSession } from 'puppeteer-core';
import { tryNormalizeUrl } from '../../common/url/normalize-url';
import { PAGE_SNAPSHOT_SCRIPT } from './page-snapshot-script';
import { DOM_POSITIONS, DomPosition, MAX_WIRE_URL_LENGTH, PageLink } from './rendered-page';

/** What a render keeps of the page, taken once after all waits. */
export interface PageSnapshot {
  /** doctype + document.documentElement.outerHTML; null when over the size limit. */
  readonly html: string | null;
  readonly htmlCharacterCount: number;
  readonly title: string | null;
  readonly lang: string | null;
  /** Visible text length of the content root (wait_selector element, else body), collapsed. */
  readonly contentTextLength: number;
  /** Visible text length of the body, collapsed. */
  readonly bodyTextLength: number;
  /**
   * The main text (wait_selector container, else <main>, else body), collapsed, at most
   * `MAX_MAIN_TEXT_LENGTH` characters; null unless asked for (an API endpoint hint needs it).
   */
  readonly mainText: string | null;
  readonly links: PageLink[];
}

interface RawLink {
  href: string;
  rel: string;
  position: string;
  text: string;
}

interface RawSnapshot extends Omit<PageSnapshot, 'links'> {
  links: RawLink[];
}

export interface SnapshotLimits {
  readonly maxHtmlCharacterCount: number;
  readonly maxLinkCount: number;
}

/**
 * Anchor text kept per link (CONTRACT.md LinkItem). A link wrapping a whole article would otherwise
 * carry the article, and a page of such links could make a lease's report larger than the
 * scheduler accepts.
 */
export const MAX_ANCHOR_TEXT_LENGTH = 300;

/** Main text kept for comparing with JSON answers: enough for any article. */
export const MAX_MAIN_TEXT_LENGTH = 200_000;

function emptyToNull(value: string | null): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * Normalizes link URLs (dropping mailto:, javascript:, other schemes and over-long URLs) and
 * drops exact duplicates (same URL, rel, position and text): they carry no information.
 */
function toPageLinks(rawLinks: readonly RawLink[]): PageLink[] {
  const seen = new Set<string>();
  const links: PageLink[] = [];
  for (const raw of rawLinks) {
    const url = tryNormalizeUrl(raw.href);
    // Longer than the contract allows: no crawler could store or fetch it sensibly.
    if (url === undefined || url.length > MAX_WIRE_URL_LENGTH) continue;
    const position = (DOM_POSITIONS as readonly string[]).includes(raw.position)
      ? (raw.position as DomPosition)
      : 'other';
    const link: PageLink = { url, rel: raw.rel, dom_position: position, anchor_text: raw.text };
    const key = JSON.stringify(link);
    if (!seen.has(key)) {
      seen.add(key);
      links.push(link);
    }
  }
  return links;
}

/** Runs the snapshot script in the page's main world. */
export async function takePageSnapshot(
  session: CDPSession,
  waitSelector: string | null,
  limits: SnapshotLimits,
  isMainTextWanted = false,
): Promise<PageSnapshot> {
  const argument = JSON.stringify({
    waitSelector,
    maxAnchorTextLength: MAX_ANCHOR_TEXT_LENGTH,
    maxMainTextLength: MAX_MAIN_TEXT_LENGTH,
    isMainTextWanted,
    ...limits,
  });
  const result = await session.send('Runtime.evaluate', {
    expression: `${PAGE_SNAPSHOT_SCRIPT}(${argument})`,
    returnByValue: true,
  });
  if (result.exceptionDetails !== undefined) {
    throw new Error(
      `page snapshot failed: ${result.exceptionDetails.exception?.description ?? result.exceptionDetails.text}`,
    );
  }
  const raw = result.result.value as RawSnapshot;
  return {
    ...raw,
    title: emptyToNull(raw.title),
    lang: emptyToNull(raw.lang),
    links: toPageLinks(raw.links),
  };
}

/** True when `selector` is a valid CSS selector (checked in the page, before any navigation). */
export async function isValidSelector(session: CDPSession, selector: string): Promise<boolean> {
  const result = await session.send('Runtime.evaluate', {
    expression: `document.querySelector(${JSON.stringify(selector)}), true`,
    returnByValue: true,
  });
  return result.exceptionDetails === undefined;
}
