import { apiEndpointProblems, endpointUrlFor, type ApiEndpoint } from '../../common/api-endpoint';

/** One observation behind a mapping: a page and the endpoint whose JSON carried its text. */
export interface EndpointEvidence {
  readonly pageUrl: string;
  readonly endpointUrl: string;
  readonly contentPointer: string;
}

export type EndpointInference =
  | {
      readonly kind: 'mapping';
      readonly apiEndpoint: ApiEndpoint;
      /** The hints the mapping reproduces (the others are pages of another shape). */
      readonly explained: readonly EndpointEvidence[];
    }
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
 * from every hint — the whole path first (the most general mapping), then its segments from the
 * last to the first (identifiers sit at the end) — and the candidate that reproduces the most
 * hints' endpoint URLs through endpointUrlFor wins (ties: the earlier, more general one). It must
 * explain more than half of the hints: a site's pages of one kind share an endpoint shape, and a
 * few pages of another kind (a client-routed page with its own feed) must not hide it; but hints
 * with no dominant shape give none — guessing would fetch the wrong JSON.
 */
export function inferApiEndpoint(evidence: readonly EndpointEvidence[]): EndpointInference {
  if (evidence.length === 0) return { kind: 'none', reason: 'no hint' };
  const candidates = evidence.flatMap((hint) => candidateMappings(hint));
  if (candidates.length === 0) {
    return {
      kind: 'none',
      reason: 'no endpoint URL carries its page path or one of its segments',
    };
  }
  let best: { mapping: Omit<ApiEndpoint, 'content_pointer'>; explained: EndpointEvidence[] } = {
    mapping: candidates[0],
    explained: [],
  };
  for (const candidate of candidates) {
    const explained = evidence.filter(
      (hint) =>
        endpointUrlFor({ ...candidate, content_pointer: '' }, hint.pageUrl) === hint.endpointUrl,
    );
    if (explained.length > best.explained.length) best = { mapping: candidate, explained };
  }
  if (best.explained.length * 2 <= evidence.length) {
    return {
      kind: 'none',
      reason: `no mapping reproduces more than half of the ${evidence.length} hints (inconsistent endpoints)`,
    };
  }
  const contentPointer = commonAncestorPointer(best.explained.map((hint) => hint.contentPointer));
  return {
    kind: 'mapping',
    apiEndpoint: { ...best.mapping, content_pointer: contentPointer },
    explained: best.explained,
  };
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

function candidateMappings(hint: EndpointEvidence): Array<Omit<ApiEndpoint, 'content_pointer'>> {
  if (!URL.canParse(hint.pageUrl) || !URL.canParse(hint.endpointUrl)) return [];
  const page = new URL(hint.pageUrl);
  const origin = page.origin;
  if (new URL(hint.endpointUrl).origin !== origin || !hint.endpointUrl.startsWith(origin)) {
    return [];
  }
  const endpointRest = hint.endpointUrl.slice(origin.length);
  const mappings: Array<Omit<ApiEndpoint, 'content_pointer'>> = [];
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
      };
      if (
        mapping.page_url_pattern.length <= MAX_PATTERN_LENGTH &&
        template.length <= MAX_TEMPLATE_LENGTH &&
        apiEndpointProblems({ ...mapping, content_pointer: '' }).length === 0
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
