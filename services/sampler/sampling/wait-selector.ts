import { selectOne } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { isTag } from 'domhandler';
import { textContent } from 'domutils';
import type { PageAnalysis } from './page-analysis';

/**
 * `wait_selector`: the container of the main content that only exists after rendering, so the
 * downloader's wait (the first step of its wait strategy) waits for the content itself.
 *
 * Derivation, per sampled page:
 *  1. attribute every render-only content token of the rendered DOM (text the plain page did not
 *     show) to the element holding it, and sum up the tree;
 *  2. walk down from <body> while one child holds at least CONTAINER_SHARE of them: the deepest
 *     such element is the content container;
 *  3. offer short, stable selectors for it and its ancestors: an id that does not look generated,
 *     `main`, `[role="main"]`, `article`, `tag.class` with a class that is neither hashed nor a
 *     state; for a container the plain page has but empty (a mount point), also `S > *`.
 * A selector is kept only when it matches on every rendered page sampled and its first match
 * (what the downloader waits for and measures) holds a good share of the render-only text. Among
 * those, one absent from every plain page wins (the wait really waits), then coverage, then the
 * more meaningful and shorter.
 */

const CONTAINER_SHARE = 0.8;
const MIN_FIRST_MATCH_COVERAGE = 0.4;
const STABLE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
/** Generated-looking names: CSS-module / CSS-in-JS hashes, long digit runs, framework ids. */
const GENERATED_NAME =
  /(^(css|sc|jsx|svelte|emotion|tw|styled|ember|ng|v|data-v)-)|([_-][A-Za-z0-9]*\d[A-Za-z0-9]*$)|\d{3,}|__[A-Za-z0-9]{5,}/;
/** Classes that describe a state, not a place. */
const STATE_CLASS =
  /^(is-|has-)|^(active|open|show|shown|hidden|visible|loading|loaded|ready|selected|disabled|fade|in|clearfix|container|row|col)$/;

export interface WaitSelectorPage {
  readonly plain: PageAnalysis | null;
  readonly rendered: PageAnalysis;
}

export interface WaitSelectorChoice {
  readonly selector: string;
  /** Mean share of the render-only text inside the first match. */
  readonly coverage: number;
  /** The selector matches nothing in any plain page: the downloader's wait waits for content. */
  readonly isAbsentFromPlain: boolean;
}

interface RenderOnlyCounts {
  readonly counts: Map<Element, number>;
  readonly total: number;
}

const countCache = new WeakMap<WaitSelectorPage, RenderOnlyCounts>();

/** Render-only token count per element (the element and its descendants), computed once a page. */
function renderOnlyCounts(page: WaitSelectorPage): RenderOnlyCounts {
  const cached = countCache.get(page);
  if (cached !== undefined) return cached;
  const computed = countRenderOnly(page);
  countCache.set(page, computed);
  return computed;
}

function countRenderOnly(page: WaitSelectorPage): RenderOnlyCounts {
  const budget = new Map<string, number>();
  for (const [token, count] of page.plain?.visibleTokens.entries() ?? []) budget.set(token, count);
  const counts = new Map<Element, number>();
  let total = 0;
  for (const segment of page.rendered.segments) {
    if (segment.isChrome) continue;
    let renderOnly = 0;
    for (const token of segment.tokens) {
      const left = budget.get(token) ?? 0;
      if (left > 0) budget.set(token, left - 1);
      else renderOnly += 1;
    }
    if (renderOnly === 0) continue;
    total += renderOnly;
    for (let node: Element | null = segment.element; node !== null; node = parentElement(node)) {
      counts.set(node, (counts.get(node) ?? 0) + renderOnly);
    }
  }
  return { counts, total };
}

function parentElement(node: AnyNode): Element | null {
  const parent = node.parent;
  return parent !== null && isTag(parent) ? parent : null;
}

function findBody(page: PageAnalysis): Element | null {
  return selectOne('body', page.document.children);
}

/** The deepest element holding CONTAINER_SHARE of the render-only text, and its ancestors. */
function containerPath(page: WaitSelectorPage): Element[] {
  const { counts, total } = renderOnlyCounts(page);
  const body = findBody(page.rendered);
  if (body === null || total === 0) return [];
  const path: Element[] = [];
  let node = body;
  for (;;) {
    const next = node.children.find(
      (child): child is Element =>
        isTag(child) && (counts.get(child) ?? 0) >= CONTAINER_SHARE * total,
    );
    if (next === undefined) break;
    path.push(next);
    node = next;
  }
  return path.reverse();
}

function stableClasses(element: Element): string[] {
  return (element.attribs.class ?? '')
    .split(/\s+/)
    .filter(
      (name) => STABLE_NAME.test(name) && !GENERATED_NAME.test(name) && !STATE_CLASS.test(name),
    );
}

/** Candidate selectors for one element, most meaningful first. */
function selectorsFor(element: Element): string[] {
  const selectors: string[] = [];
  const id = element.attribs.id ?? '';
  if (STABLE_NAME.test(id) && !GENERATED_NAME.test(id)) selectors.push(`#${id}`);
  if (element.name === 'main') selectors.push('main');
  if ((element.attribs.role ?? '').trim().toLowerCase() === 'main') selectors.push('[role="main"]');
  if (element.name === 'article') selectors.push('article');
  for (const name of stableClasses(element).slice(0, 3)) selectors.push(`${element.name}.${name}`);
  return selectors;
}

interface Evaluation {
  readonly selector: string;
  readonly coverage: number;
  readonly isAbsentFromPlain: boolean;
  readonly isEmptyInPlain: boolean;
  readonly rank: number;
}

function firstMatch(selector: string, page: PageAnalysis): Element | null {
  try {
    return selectOne(selector, page.document.children);
  } catch {
    return null;
  }
}

function evaluate(
  selector: string,
  rank: number,
  pages: readonly WaitSelectorPage[],
): Evaluation | null {
  let coverageSum = 0;
  let isAbsentFromPlain = true;
  let isEmptyInPlain = true;
  for (const page of pages) {
    const match = firstMatch(selector, page.rendered);
    if (match === null) return null;
    const { counts, total } = renderOnlyCounts(page);
    const coverage = total === 0 ? 0 : (counts.get(match) ?? 0) / total;
    if (coverage < MIN_FIRST_MATCH_COVERAGE / 2) return null;
    coverageSum += coverage;
    const plainMatch = page.plain === null ? null : firstMatch(selector, page.plain);
    if (plainMatch !== null) {
      isAbsentFromPlain = false;
      if (textContent(plainMatch).trim() !== '') isEmptyInPlain = false;
    }
  }
  const coverage = coverageSum / pages.length;
  if (coverage < MIN_FIRST_MATCH_COVERAGE) return null;
  return { selector, coverage, isAbsentFromPlain, isEmptyInPlain, rank };
}

/** Landmarks name the whole content area; an article may be the first of several items. */
function kindBonus(selector: string): number {
  if (selector === 'main' || selector === '[role="main"]') return 0.05;
  if (selector.startsWith('#') && !selector.includes(' ')) return 0.04;
  if (selector === 'article') return 0.02;
  return 0;
}

function score(evaluation: Evaluation): number {
  const plainState = evaluation.isAbsentFromPlain ? 1 : evaluation.isEmptyInPlain ? 0.3 : 0;
  return (
    plainState +
    evaluation.coverage +
    kindBonus(evaluation.selector) -
    evaluation.rank * 0.01 -
    evaluation.selector.length / 1000
  );
}

/**
 * Picks the wait_selector for pages judged csr or partial; null when no short selector matches
 * every rendered page with enough of the render-only content under it.
 */
export function deriveWaitSelector(pages: readonly WaitSelectorPage[]): WaitSelectorChoice | null {
  const candidates: string[] = [];
  for (const page of pages) {
    for (const element of containerPath(page)) {
      for (const selector of selectorsFor(element)) {
        if (!candidates.includes(selector)) candidates.push(selector);
        // A container the plain page already has (empty): its first child only comes with the content.
        const child = `${selector} > *`;
        if (!candidates.includes(child)) candidates.push(child);
      }
    }
  }
  const evaluations = candidates
    .map((selector, rank) => evaluate(selector, rank, pages))
    .filter((evaluation): evaluation is Evaluation => evaluation !== null)
    // "S > *" only earns its place where S alone would not wait.
    .filter((evaluation) => !evaluation.selector.endsWith(' > *') || evaluation.isAbsentFromPlain);
  if (evaluations.length === 0) return null;
  const best = evaluations.reduce((a, b) => (score(b) > score(a) ? b : a));
  return {
    selector: best.selector,
    coverage: Math.round(best.coverage * 1000) / 1000,
    isAbsentFromPlain: best.isAbsentFromPlain,
  };
}

/** Does `selector` match on every rendered page? (The check the downloader's wait relies on.) */
export function matchesEveryRenderedPage(
  selector: string,
  pages: readonly WaitSelectorPage[],
): boolean {
  return pages.every((page) => firstMatch(selector, page.rendered) !== null);
}

/** Elements that carry content; a page gaining one of them has grown content. */
const CONTENT_TAGS = [
  'article',
  'main',
  'h1',
  'h2',
  'h3',
  'p',
  'li',
  'table',
  'pre',
  'blockquote',
  'dd',
];

/**
 * For a page that rendered without content but runs scripts: a selector that matches once content
 * arrives — any content element the rendered page does not have yet, or a first child inside a
 * framework mount point that is still childless — so a second render waits until content
 * appears (content built after a timer, which the downloader's network-quiet wait cannot see).
 * Null when there is nothing to wait for.
 */
export function delayedContentSelector(rendered: PageAnalysis): string | null {
  const missing = CONTENT_TAGS.filter((tag) => (rendered.bodyTagCounts.get(tag) ?? 0) === 0);
  // A plain selector list, no :is(): the downloader's wait (puppeteer) was measured never to
  // resolve an :is() selector on a page rendering in the background, while plain lists resolve.
  const alternatives = [
    ...missing,
    ...rendered.childlessMountPointList.map((mountPoint) => `${mountPoint} > *`),
  ];
  return alternatives.length === 0 ? null : alternatives.join(', ');
}
