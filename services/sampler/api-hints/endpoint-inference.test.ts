import { endpointUrlFor } from '../../common/api-endpoint';
import {
  commonAncestorPointer,
  inferApiEndpoint,
  type EndpointEvidence,
} from './endpoint-inference';

const ORIGIN = 'http://127.0.0.5:8080';

const hint = (page: string, endpoint: string, contentPointer = ''): EndpointEvidence => ({
  pageUrl: `${ORIGIN}${page}`,
  endpointUrl: `${ORIGIN}${endpoint}`,
  contentPointer,
});

describe('inferApiEndpoint', () => {
  it('maps a page path carried URL-encoded in a query to a group over the whole path', () => {
    const inference = inferApiEndpoint([
      hint('/articles/1', '/api/page?path=%2Farticles%2F1'),
      hint('/articles/2', '/api/page?path=%2Farticles%2F2'),
    ]);
    expect(inference).toMatchObject({
      kind: 'mapping',
      apiEndpoint: {
        page_url_pattern: '^http://127\\.0\\.0\\.5:8080(?<path>/[^?#]*)$',
        endpoint_url_template: `${ORIGIN}/api/page?path={path}`,
        content_pointer: '',
      },
    });
    if (inference.kind !== 'mapping') return;
    // It generalizes to a page no hint named.
    expect(endpointUrlFor(inference.apiEndpoint, `${ORIGIN}/about`)).toBe(
      `${ORIGIN}/api/page?path=%2Fabout`,
    );
  });

  it('maps an identifier segment to a group over that segment', () => {
    const inference = inferApiEndpoint([
      hint('/items/42', '/api/items/42.json', '/item'),
      hint('/items/7', '/api/items/7.json', '/item'),
    ]);
    expect(inference).toMatchObject({
      kind: 'mapping',
      apiEndpoint: {
        page_url_pattern: '^http://127\\.0\\.0\\.5:8080/items/(?<segment>[^/?#]+)$',
        endpoint_url_template: `${ORIGIN}/api/items/{segment}.json`,
        content_pointer: '/item',
      },
    });
    if (inference.kind !== 'mapping') return;
    expect(endpointUrlFor(inference.apiEndpoint, `${ORIGIN}/items/1000`)).toBe(
      `${ORIGIN}/api/items/1000.json`,
    );
    // Another section of the site is not this mapping's business.
    expect(endpointUrlFor(inference.apiEndpoint, `${ORIGIN}/shops/1000`)).toBeUndefined();
  });

  it('prefers the last segment (where identifiers sit) when one hint allows several', () => {
    const single = inferApiEndpoint([hint('/items/42', '/api/items/42.json')]);
    expect(single.kind === 'mapping' && single.apiEndpoint.endpoint_url_template).toBe(
      `${ORIGIN}/api/items/{segment}.json`,
    );
  });

  it('gives no mapping for inconsistent hints', () => {
    const inference = inferApiEndpoint([
      hint('/articles/1', '/api/page?path=%2Farticles%2F1'),
      hint('/items/42', '/api/items/42.json'),
    ]);
    expect(inference).toEqual({
      kind: 'none',
      reason: expect.stringMatching(/no mapping reproduces more than half of the 2 hints/),
    });
  });

  it('sets aside a page of another kind when most hints share one shape', () => {
    const articles = [
      hint('/articles/1', '/api/page?path=%2Farticles%2F1'),
      hint('/about', '/api/page?path=%2Fabout'),
    ];
    // A client-routed page whose content comes from its own feed.
    const feedPage = hint('/csr', '/api/articles');
    const inference = inferApiEndpoint([feedPage, ...articles]);
    expect(inference).toMatchObject({
      kind: 'mapping',
      apiEndpoint: { endpoint_url_template: `${ORIGIN}/api/page?path={path}` },
      explained: articles,
    });
  });

  it('gives no mapping when the endpoint carries nothing of the page URL', () => {
    expect(inferApiEndpoint([hint('/articles/1', '/api/feed')])).toEqual({
      kind: 'none',
      reason: expect.stringMatching(/carries its page path or one of its segments/),
    });
    expect(inferApiEndpoint([])).toEqual({ kind: 'none', reason: 'no hint' });
  });

  it('never maps to another origin', () => {
    const elsewhere: EndpointEvidence = {
      pageUrl: `${ORIGIN}/articles/1`,
      endpointUrl: 'http://127.0.0.6:8080/api/page?path=%2Farticles%2F1',
      contentPointer: '',
    };
    expect(inferApiEndpoint([elsewhere]).kind).toBe('none');
  });

  it('escapes the page parts it keeps literal', () => {
    const inference = inferApiEndpoint([hint('/a.b+c/42', '/api/a.b+c/42')]);
    expect(inference.kind).toBe('mapping');
    if (inference.kind !== 'mapping') return;
    expect(endpointUrlFor(inference.apiEndpoint, `${ORIGIN}/aXb+c/42`)).toBeUndefined();
    expect(endpointUrlFor(inference.apiEndpoint, `${ORIGIN}/a.b+c/43`)).toBe(
      `${ORIGIN}/api/a.b+c/43`,
    );
  });
});

describe('commonAncestorPointer', () => {
  it('is the deepest pointer every pointer lies under', () => {
    expect(commonAncestorPointer(['/item/description', '/item/description'])).toBe(
      '/item/description',
    );
    expect(commonAncestorPointer(['/item/description', '/item/title'])).toBe('/item');
    expect(commonAncestorPointer(['/a', '/b'])).toBe('');
    expect(commonAncestorPointer(['', '/a'])).toBe('');
  });
});
