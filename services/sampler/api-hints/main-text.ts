import { selectOne } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { getElementsByTagName } from 'domutils';
import { parseDocument } from 'htmlparser2';

/** Elements whose text a reader never sees. */
const INVISIBLE_TAGS = new Set(['head', 'script', 'style', 'noscript', 'template', 'svg']);

/**
 * A rendered page's main text, chosen as the downloader chooses it for its hint (v2 brief): the
 * first match of the rule's wait_selector, else `<main>`, else `<body>` — its visible text only
 * (no scripts, styles or hidden elements), so that what the sampler verifies is what the
 * downloader measured.
 */
export function mainTextOf(renderedHtml: string, waitSelector: string | null): string {
  const document = parseDocument(renderedHtml, {
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });
  const container =
    selectorMatch(waitSelector, document.children) ??
    getElementsByTagName('main', document.children, true, 1)[0] ??
    getElementsByTagName('body', document.children, true, 1)[0];
  const parts: string[] = [];
  const visit = (nodes: readonly AnyNode[]) => {
    for (const node of nodes) {
      if (isText(node)) parts.push(node.data);
      else if (isTag(node) && !INVISIBLE_TAGS.has(node.name) && !isHidden(node)) {
        visit(node.children);
      }
    }
  };
  visit(container === undefined ? document.children : [container]);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

function selectorMatch(selector: string | null, nodes: AnyNode[]): Element | undefined {
  if (selector === null || selector.trim() === '') return undefined;
  try {
    const match = selectOne(selector, nodes);
    return match !== null && isTag(match) ? match : undefined;
  } catch {
    // A selector css-select cannot read: the downloader's browser may; fall back like no match.
    return undefined;
  }
}

function isHidden(element: Element): boolean {
  if (element.attribs.hidden !== undefined) return true;
  const style = (element.attribs.style ?? '').toLowerCase().replace(/\s+/g, '');
  return style.includes('display:none') || style.includes('visibility:hidden');
}
