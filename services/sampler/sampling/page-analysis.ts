import type { Document, Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { getElementsByTagName, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { tokenize, TokenCounts } from './text-tokens';

/**
 * One HTML document (a plain response body or a rendered DOM) reduced to what the verdict needs:
 * the text a reader sees, split into main content and page chrome, plus the markers that tell
 * how the page was built. Parsed with htmlparser2 (forgiving like a browser, no regexes over
 * HTML).
 */

/** A run of visible text and the element holding it. */
export interface TextSegment {
  readonly element: Element;
  readonly tokens: readonly string[];
  /** Inside navigation, a banner, a footer, a complementary region or a dialog. */
  readonly isChrome: boolean;
  /** Inside a `<form>` (a login form's labels are not content). */
  readonly isInForm: boolean;
}

export interface PageAnalysis {
  readonly document: Document;
  readonly html: string;
  /** Primary subtag of `<html lang>`, lowercase; null when absent or malformed. */
  readonly language: string | null;
  readonly title: string | null;
  /** Visible text in document order, chrome and content alike. */
  readonly segments: readonly TextSegment[];
  /** Tokens of the main content (everything visible outside the chrome). */
  readonly contentTokens: TokenCounts;
  /** Tokens of everything visible. */
  readonly visibleTokens: TokenCounts;
  /** Content tokens outside forms. */
  readonly formFreeContentTokenCount: number;
  /** Characters of visible text (whitespace collapsed), as the challenge heuristic counts them. */
  readonly visibleTextLength: number;
  readonly hasPasswordField: boolean;
  /** `<script>` elements that run (no type, a JavaScript type, or module). */
  readonly executableScriptCount: number;
  /** Selectors of framework mount points that hold no visible text (`#root`, `#app`, …). */
  readonly emptyMountPointList: readonly string[];
  /** Selectors of framework mount points without any child element (nothing mounted yet). */
  readonly childlessMountPointList: readonly string[];
  /** Kinds of data payloads for client-side hydration found in scripts (`__NEXT_DATA__`, …). */
  readonly hydrationPayloadList: readonly string[];
  /** Tokens of the strings inside those payloads. */
  readonly hydrationTokens: TokenCounts;
  /** A `<noscript>` that talks about JavaScript ("enable JavaScript to run this app"). */
  readonly hasNoscriptJavaScriptNotice: boolean;
  /** Unrendered template syntax (`{{ … }}`) in the visible text: a client-side template. */
  readonly hasTemplateSyntax: boolean;
  /** Element counts by tag name inside the body (for the delayed-content wait). */
  readonly bodyTagCounts: ReadonlyMap<string, number>;
}

/** Never visible as text. */
const INVISIBLE_TAGS = new Set([
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'canvas',
  'iframe',
  'object',
  'embed',
  'video',
  'audio',
  'select',
  'option',
  'textarea',
  'button',
]);

const CHROME_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
]);
const CHROME_TAGS = new Set(['nav', 'aside', 'dialog']);
/** A header or footer scoped inside one of these is not the page's banner / contentinfo. */
const SCOPING_TAGS = new Set(['article', 'aside', 'main', 'nav', 'section']);
/** Consent and cookie layers are injected by scripts on server-rendered sites too. */
const CONSENT_LAYER = /(^|[-_\s])(cookie|consent|gdpr|cmp)([-_\s]|$)/i;

const MOUNT_POINT_IDS = [
  'root',
  'app',
  '__next',
  '__nuxt',
  '___gatsby',
  'svelte',
  'q-app',
  'react-root',
  'app-root',
  'main-app',
];
const MOUNT_POINT_TAGS = ['app-root'];
const MOUNT_POINT_ATTRIBUTES = ['ng-app', 'data-reactroot', 'data-v-app', 'ng-version'];

/** Inline script markers of state serialized for hydration by common frameworks. */
const INLINE_STATE_MARKERS: ReadonlyArray<readonly [string, RegExp]> = [
  ['__NUXT__', /window\.__NUXT__\s*=|__NUXT_DATA__/],
  ['__INITIAL_STATE__', /__INITIAL_STATE__\s*=/],
  ['__PRELOADED_STATE__', /__PRELOADED_STATE__\s*=/],
  ['__APOLLO_STATE__', /__APOLLO_STATE__\s*=/],
  ['next_flight', /self\.__next_f\.push/],
  ['__remixContext', /__remixContext\s*=/],
];

const EXECUTABLE_SCRIPT_TYPES = new Set([
  '',
  'text/javascript',
  'application/javascript',
  'module',
  'text/ecmascript',
  'application/ecmascript',
]);

function attribute(element: Element, name: string): string {
  return element.attribs[name] ?? '';
}

function isHidden(element: Element): boolean {
  if (element.attribs.hidden !== undefined) return true;
  if (attribute(element, 'aria-hidden').toLowerCase() === 'true') return true;
  const style = attribute(element, 'style').toLowerCase().replace(/\s+/g, '');
  return style.includes('display:none') || style.includes('visibility:hidden');
}

function isChromeElement(element: Element, isScoped: boolean): boolean {
  const role = attribute(element, 'role').trim().toLowerCase().split(/\s+/)[0];
  if (CHROME_ROLES.has(role)) return true;
  if (CHROME_TAGS.has(element.name)) return true;
  if ((element.name === 'header' || element.name === 'footer') && !isScoped) return true;
  return CONSENT_LAYER.test(`${attribute(element, 'id')} ${attribute(element, 'class')}`);
}

export function primaryLanguage(value: string | undefined): string | null {
  const primary = (value ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return /^[a-z]{2,3}$/.test(primary) ? primary : null;
}

/** String values inside a JSON text or a script literal, for the payload's tokens. */
function payloadStrings(text: string): string[] {
  try {
    const strings: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === 'string') strings.push(value);
      else if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(JSON.parse(text));
    return strings;
  } catch {
    // Not JSON (a script assigning state): take its double-quoted string literals.
    return [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => {
      try {
        return JSON.parse(`"${match[1]}"`) as string;
      } catch {
        return match[1];
      }
    });
  }
}

interface WalkState {
  readonly isChrome: boolean;
  readonly isScoped: boolean;
  readonly isInForm: boolean;
  readonly isInBody: boolean;
}

export function analysePage(html: string): PageAnalysis {
  const document = parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true });
  const segments: TextSegment[] = [];
  const contentTokens = new TokenCounts();
  const visibleTokens = new TokenCounts();
  const hydrationTokens = new TokenCounts();
  const bodyTagCounts = new Map<string, number>();
  const hydrationPayloads = new Set<string>();
  const emptyMountPoints: string[] = [];
  const childlessMountPoints: string[] = [];
  let formFreeContentTokenCount = 0;
  let visibleText = '';
  let hasPasswordField = false;
  let executableScriptCount = 0;
  let hasNoscriptJavaScriptNotice = false;

  const inspectScript = (element: Element): void => {
    const type = attribute(element, 'type').trim().toLowerCase();
    const text = textContent(element);
    if (EXECUTABLE_SCRIPT_TYPES.has(type)) {
      executableScriptCount += 1;
      for (const [name, marker] of INLINE_STATE_MARKERS) {
        if (marker.test(text)) {
          hydrationPayloads.add(name);
          for (const value of payloadStrings(text))
            hydrationTokens.addAll(new TokenCounts(tokenize(value)));
        }
      }
    } else if (type === 'application/json' || type === 'application/ld+json') {
      const id = attribute(element, 'id');
      hydrationPayloads.add(id !== '' ? `#${id}` : type);
      for (const value of payloadStrings(text))
        hydrationTokens.addAll(new TokenCounts(tokenize(value)));
    }
  };

  const walk = (element: Element, state: WalkState): void => {
    if (state.isInBody) bodyTagCounts.set(element.name, (bodyTagCounts.get(element.name) ?? 0) + 1);
    if (element.name === 'script') return inspectScript(element);
    if (element.name === 'noscript') {
      if (/javascript/i.test(textContent(element))) hasNoscriptJavaScriptNotice = true;
      return;
    }
    if (element.name === 'input' && attribute(element, 'type').toLowerCase() === 'password') {
      if (!isHidden(element)) hasPasswordField = true;
      return;
    }
    if (INVISIBLE_TAGS.has(element.name) || isHidden(element)) return;
    const next: WalkState = {
      isChrome: state.isChrome || isChromeElement(element, state.isScoped),
      isScoped: state.isScoped || SCOPING_TAGS.has(element.name),
      isInForm: state.isInForm || element.name === 'form',
      isInBody: state.isInBody || element.name === 'body',
    };
    for (const child of element.children) {
      if (isTag(child)) {
        walk(child, next);
      } else if (isText(child)) {
        const text = child.data;
        if (text.trim() === '') continue;
        visibleText += ` ${text}`;
        const tokens = tokenize(text);
        if (tokens.length === 0) continue;
        segments.push({ element, tokens, isChrome: next.isChrome, isInForm: next.isInForm });
        for (const token of tokens) {
          visibleTokens.add(token);
          if (!next.isChrome) contentTokens.add(token);
        }
        if (!next.isChrome && !next.isInForm) formFreeContentTokenCount += tokens.length;
      }
    }
  };

  const root: WalkState = { isChrome: false, isScoped: false, isInForm: false, isInBody: false };
  for (const child of document.children) if (isTag(child)) walk(child, root);

  const noteMountPoint = (element: Element | undefined, selector: string): void => {
    if (element === undefined) return;
    if (textContent(element).trim() === '') emptyMountPoints.push(selector);
    if (!element.children.some(isTag)) childlessMountPoints.push(selector);
  };
  for (const id of MOUNT_POINT_IDS) noteMountPoint(findById(document, id), `#${id}`);
  for (const tag of MOUNT_POINT_TAGS) {
    noteMountPoint(getElementsByTagName(tag, document.children, true, 1)[0], tag);
  }
  for (const name of MOUNT_POINT_ATTRIBUTES)
    noteMountPoint(findByAttribute(document, name), `[${name}]`);

  const htmlElement = getElementsByTagName('html', document.children, true, 1)[0];
  const titleElement = getElementsByTagName('title', document.children, true, 1)[0];
  const collapsedText = visibleText.replace(/\s+/g, ' ').trim();
  return {
    document,
    html,
    language: primaryLanguage(htmlElement?.attribs.lang),
    title: titleElement === undefined ? null : textContent(titleElement).trim() || null,
    segments,
    contentTokens,
    visibleTokens,
    formFreeContentTokenCount,
    visibleTextLength: collapsedText.length,
    hasPasswordField,
    executableScriptCount,
    emptyMountPointList: emptyMountPoints,
    childlessMountPointList: childlessMountPoints,
    hydrationPayloadList: [...hydrationPayloads],
    hydrationTokens,
    hasNoscriptJavaScriptNotice,
    hasTemplateSyntax: /\{\{[^{}]{1,80}\}\}/.test(collapsedText),
    bodyTagCounts,
  };
}

function findFirst(document: Document, test: (element: Element) => boolean): Element | undefined {
  const stack = [...document.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === undefined || !isTag(node)) continue;
    if (test(node)) return node;
    for (let index = node.children.length - 1; index >= 0; index -= 1) {
      stack.push(node.children[index]);
    }
  }
  return undefined;
}

function findById(document: Document, id: string): Element | undefined {
  return findFirst(document, (element) => element.attribs.id === id);
}

function findByAttribute(document: Document, name: string): Element | undefined {
  return findFirst(document, (element) => element.attribs[name] !== undefined);
}
