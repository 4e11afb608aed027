import type { components } from '../../../generated/components/types';

/** How a page URL maps to the JSON endpoint carrying its content (CONTRACT.md §八 ApiEndpoint). */
export type ApiEndpoint = components['schemas']['ApiEndpoint'];

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * What is wrong with an endpoint mapping, one sentence per problem (empty: usable). The schema
 * already bounds the lengths; this checks what a schema cannot: the pattern compiles, every
 * placeholder of the template is a named group of the pattern, the template is an http(s) URL.
 */
export function apiEndpointProblems(endpoint: ApiEndpoint): string[] {
  const problems: string[] = [];
  let groups: Set<string>;
  try {
    groups = namedGroupsOf(new RegExp(endpoint.page_url_pattern, 'u'));
  } catch (error) {
    return [`page_url_pattern does not compile: ${(error as Error).message}`];
  }
  for (const name of placeholdersOf(endpoint.endpoint_url_template)) {
    if (!groups.has(name)) {
      problems.push(
        `endpoint_url_template names {${name}}, which page_url_pattern has no group for`,
      );
    }
  }
  const sample = endpoint.endpoint_url_template.replace(PLACEHOLDER, 'x');
  if (!/^https?:\/\/[^/?#]+/i.test(sample) || !URL.canParse(sample)) {
    problems.push('endpoint_url_template is not an absolute http(s) URL');
  }
  if (endpoint.content_pointer !== '' && !endpoint.content_pointer.startsWith('/')) {
    problems.push('content_pointer is not a JSON Pointer ("" or starting with "/")');
  }
  return problems;
}

/**
 * The endpoint URL of `pageUrl`, or undefined when the mapping does not apply to it: the pattern
 * must match the whole URL, and the endpoint must be on the page's own origin (an api fetch is
 * the page's fetch by other means, under the page's robots rules and rate limit — never a
 * request to another host).
 */
export function endpointUrlFor(endpoint: ApiEndpoint, pageUrl: string): string | undefined {
  let match: RegExpExecArray | null;
  try {
    match = new RegExp(endpoint.page_url_pattern, 'u').exec(pageUrl);
  } catch {
    return undefined;
  }
  if (match === null || match.index !== 0 || match[0].length !== pageUrl.length) return undefined;
  const groups = match.groups ?? {};
  let isComplete = true;
  const filled = endpoint.endpoint_url_template.replace(PLACEHOLDER, (_all, name: string) => {
    const value = groups[name];
    if (value === undefined) isComplete = false;
    return encodeURIComponent(value ?? '');
  });
  if (!isComplete || !URL.canParse(filled) || !URL.canParse(pageUrl)) return undefined;
  return new URL(filled).origin === new URL(pageUrl).origin ? filled : undefined;
}

function namedGroupsOf(pattern: RegExp): Set<string> {
  // A regular expression's named groups are the keys of `groups` on a match of an alternation
  // that always matches: `(?:pattern)|` matches the empty string with every group undefined.
  const always = new RegExp(`(?:${pattern.source})|`, pattern.flags).exec('');
  return new Set(Object.keys(always?.groups ?? {}));
}

function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]);
}
