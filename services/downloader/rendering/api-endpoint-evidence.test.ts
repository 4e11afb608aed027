import { apiEndpointCandidateOf } from './api-endpoint-evidence';

const MAIN_TEXT = 'Harbour reopens after the storm. Ferries run again from Monday morning.';
const response = (body: unknown, url = 'http://127.0.0.2/api/story?id=7') => ({
  url,
  body: JSON.stringify(body),
});

test('steps into a wrapper that carries the whole text, not into a part of it', () => {
  const candidate = apiEndpointCandidateOf(MAIN_TEXT, [
    response({ isLate: true }, 'http://127.0.0.2/api/late'),
    response({
      meta: { id: 7 },
      data: {
        story: {
          heading: 'Harbour reopens after the storm.',
          body: 'Ferries run again from Monday morning.',
        },
      },
    }),
  ]);
  expect(candidate).toMatchObject({
    endpointUrl: 'http://127.0.0.2/api/story?id=7',
    contentPointer: '/data/story',
  });
  expect(candidate?.matchedCharacterCount).toBe(candidate?.textCharacterCount);
});

test('no candidate below 60 % of the main text, for short texts, or for answers without text', () => {
  expect(
    apiEndpointCandidateOf(MAIN_TEXT, [response({ heading: 'Harbour reopens after the storm.' })]),
  ).toBeUndefined();
  expect(apiEndpointCandidateOf('Tiny page', [response({ text: 'Tiny page' })])).toBeUndefined();
  expect(apiEndpointCandidateOf(MAIN_TEXT, [response({ isLate: true })])).toBeUndefined();
  expect(
    apiEndpointCandidateOf(MAIN_TEXT, [{ url: 'http://127.0.0.2/x', body: '{oops' }]),
  ).toBeUndefined();
});

test('escapes keys in the pointer (RFC 6901)', () => {
  const candidate = apiEndpointCandidateOf(MAIN_TEXT, [
    response({ 'a/b': { '~text': MAIN_TEXT } }),
  ]);
  expect(candidate?.contentPointer).toBe('/a~1b/~0text');
});
