import { apiEndpointProblems, endpointUrlFor, type ApiEndpoint } from '../../common/api-endpoint';

/** One observation behind a mapping: a page and the endpoint whose JSON carried its text. */
export interface EndpointEvidence {
  readonly pageUrl: string;
  readonly endpointUrl: string;
  readonly contentPointer: string;
}

export type EndpointInference =
  | { readonly kind: 'mapping'; readonly apiEndpoint: ApiEndpoint }
  | { readonly kind: 'none'; readonly reason: string };

/** The schema's bounds on ApiEndpoint (components.yaml): a longer mapping could not be posted. */
const MAX_PATTERN_LENGTH = 1000;
const MAX_TEMPLATE_LENGTH = 2000;
/** Places one page part is looked for in an endpoint URL (a part can repeat there). */
const MAX_OCCURRENCE_COUNT = 8;

/**
 * Generalizes a domain's hints into one ApiEndpoint: the page's whole path, or one of its path
 * segments, is found inside the endpoint URL (URL-encoded, as endpointUrlFor fills a group) and
 * becomes a named group of the page pattern and a placeholder of the template. Candidates come
 * from the first hint — the whole path first (the most general mapping), then its segments from
 * the last to the first (identifiers sit at the end) — and the first candidate that reproduces
 * every hint's endpoint URL through endpointUrlFor wins. Hints no single mapping explains give
 * none: the site has no one endpoint shape, and guessing would fetch the wrong JSON.
 */
export function inferApiEndpoint(evidence: readonly EndpointEvidence[]): EndpointInference {
  if (evidence.length === 0) return { kind: 'none', reason: 'no hint' };
  const contentPointer = commonAncestorPointer(evidence.map((hint) => hint.contentPointer));
  const candidates = candidateMappings(evidence[0], contentPointer);
  if (candidates.length === 0) {
    return {
      kind: 'none',
      reason: 'the endpoint URL carries neither the page path nor one of its segments',
    };
  }
  const mapping = candidates.find((candidate) =>
    evidence.every((hint) => endpointUrlFor(candidate, hint.pageUrl) === hint.endpointUrl),
  );
  if (mapping === undefined) {
    return {
      kind: 'none',
      reason: `no single mapping reproduces all ${evidence.length} hints (inconsistent endpoints)`,
    };
  }
  return { kind: 'mapping', apiEndpoint: mapping };
}

/**
 * The deepest pointer all pointers lie under: its value holds each of theirs, so it carries at
 * least the text every hint found (`""` when they share no ancestor).
 */
export function commonAncestorPointer(pointers: readonly string[]): string {
  const tokenLists = pointers.map((pointer) => (pointer === '' ? [] : pointer.slice(1).split('/')));
  const common: string[] = [];
  for (let index = 0; index < (tokenLists[0]?.length ?? 0); index += 1) {
    const token = tokenLists[0][index];
    if (!tokenLists.every((tokens) => tokens[index] === token)) break;
    common.push(token);
  }
  return common.map((token) => `/${token}`).join('');
}

function candidateMappings(hint: EndpointEvidence, contentPointer: string): ApiEndpoint[] {
  if (!URL.canParse(hint.pageUrl) || !URL.canParse(hint.endpointUrl)) return [];
  const page = new URL(hint.pageUrl);
  const origin = page.origin;
  if (new URL(hint.endpointUrl).origin !== origin || !hint.endpointUrl.startsWith(origin)) {
    return [];
  }
  const endpointRest = hint.endpointUrl.slice(origin.length);
  const mappings: ApiEndpoint[] = [];
  const add = (pagePattern: string, groupName: string, pagePart: string) => {
    for (const at of occurrencesOf(endpointRest, encodeURIComponent(pagePart))) {
      const template =
        origin +
        endpointRest.slice(0, at) +
        `{${groupName}}` +
        endpointRest.slice(at + encodeURIComponent(pagePart).length);
      const mapping = {
        page_url_pattern: `^${escapeRegExp(origin)}${pagePattern}$`,
        endpoint_url_template: template,
        content_pointer: contentPointer,
      };
      if (
        mapping.page_url_pattern.length <= MAX_PATTERN_LENGTH &&
        template.length <= MAX_TEMPLATE_LENGTH &&
        apiEndpointProblems(mapping).length === 0
      ) {
        mappings.push(mapping);
      }
    }
  };
  add('(?<path>/[^?#]*)', 'path', page.pathname);
  const segments = page.pathname.split('/');
  for (let index = segments.length - 1; index >= 1; index -= 1) {
    if (segments[index] === '') continue;
    const pattern = segments
      .map((segment, at) => (at === index ? '(?<segment>[^/?#]+)' : escapeRegExp(segment)))
      .join('/');
    add(pattern, 'segment', segments[index]);
  }
  return mappings;
}

function occurrencesOf(text: string, part: string): number[] {
  const found: number[] = [];
  for (
    let at = text.indexOf(part);
    at !== -1 && found.length < MAX_OCCURRENCE_COUNT;
    at = text.indexOf(part, at + 1)
  ) {
    found.push(at);
  }
  return found;
}

function escapeRegExp(text: string): string {
  // The syntax characters only: the pattern compiles with the `u` flag, which refuses other escapes.
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
