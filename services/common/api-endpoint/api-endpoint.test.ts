import {
  apiEndpointProblems,
  childPointer,
  endpointUrlFor,
  matchedCharacterCount,
  textOfJsonValue,
  valueAtPointer,
  wordCharacterCount,
} from './index';

const itemEndpoint = {
  page_url_pattern: '^http://127\\.0\\.0\\.5:8080/items/(?<item_id>[0-9]+)$',
  endpoint_url_template: 'http://127.0.0.5:8080/api/items/{item_id}',
  content_pointer: '/item',
};

describe('ApiEndpoint mapping', () => {
  it('maps a matching page URL to its endpoint, filling named groups URL-encoded', () => {
    expect(endpointUrlFor(itemEndpoint, 'http://127.0.0.5:8080/items/42')).toBe(
      'http://127.0.0.5:8080/api/items/42',
    );
    const byPath = {
      page_url_pattern: '^http://127\\.0\\.0\\.5:8080(?<path>/[^?#]*)$',
      endpoint_url_template: 'http://127.0.0.5:8080/api/page?path={path}',
      content_pointer: '',
    };
    expect(endpointUrlFor(byPath, 'http://127.0.0.5:8080/articles/1')).toBe(
      'http://127.0.0.5:8080/api/page?path=%2Farticles%2F1',
    );
  });

  it('does not apply to a URL the pattern matches only in part, nor to another origin', () => {
    expect(endpointUrlFor(itemEndpoint, 'http://127.0.0.5:8080/items/42?x=1')).toBeUndefined();
    const unanchored = { ...itemEndpoint, page_url_pattern: '/items/(?<item_id>[0-9]+)' };
    expect(endpointUrlFor(unanchored, 'http://127.0.0.5:8080/items/42')).toBeUndefined();
    const elsewhere = { ...itemEndpoint, endpoint_url_template: 'http://127.0.0.6/api/{item_id}' };
    expect(endpointUrlFor(elsewhere, 'http://127.0.0.5:8080/items/42')).toBeUndefined();
  });

  it('names what is wrong with a mapping', () => {
    expect(apiEndpointProblems(itemEndpoint)).toEqual([]);
    expect(apiEndpointProblems({ ...itemEndpoint, page_url_pattern: '(' })[0]).toMatch(
      /does not compile/,
    );
    expect(
      apiEndpointProblems({ ...itemEndpoint, endpoint_url_template: 'http://h/api/{sku}' }),
    ).toEqual([expect.stringMatching(/\{sku\}/)]);
    expect(
      apiEndpointProblems({ ...itemEndpoint, endpoint_url_template: '/api/{item_id}' }),
    ).toEqual([expect.stringMatching(/absolute/)]);
    expect(apiEndpointProblems({ ...itemEndpoint, content_pointer: 'item' })).toEqual([
      expect.stringMatching(/JSON Pointer/),
    ]);
  });
});

describe('JSON Pointer', () => {
  const document = { item: { 'a/b': [{ '~k': 'deep' }] }, list: [1, 2] };
  it('follows RFC 6901, escapes included', () => {
    expect(valueAtPointer(document, '')).toBe(document);
    expect(valueAtPointer(document, '/item/a~1b/0/~0k')).toBe('deep');
    expect(valueAtPointer(document, childPointer(childPointer('/item', 'a/b'), 0))).toEqual({
      '~k': 'deep',
    });
    expect(valueAtPointer(document, '/list/1')).toBe(2);
    expect(valueAtPointer(document, '/list/01')).toBeUndefined();
    expect(valueAtPointer(document, '/missing')).toBeUndefined();
    expect(valueAtPointer(document, 'item')).toBeUndefined();
  });
});

describe('content text', () => {
  it('measures how much of a page text a JSON answer carries', () => {
    const json = { heading: 'First article', text: 'Prices rise in spring.', id: 7 };
    const answerText = textOfJsonValue(json);
    expect(answerText).toBe('First article Prices rise in spring.');
    const page = 'Home About First article Prices rise in spring.';
    expect(wordCharacterCount(page)).toBe(39);
    expect(matchedCharacterCount(page, answerText)).toBe(30);
    expect(matchedCharacterCount(page, '')).toBe(0);
    // Each word of the answer accounts for one occurrence in the page.
    expect(matchedCharacterCount('spring spring', 'spring')).toBe(6);
  });
});
