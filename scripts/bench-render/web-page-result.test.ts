import { resultOfWebPage } from './web-page-result';

test('an xhr entry counts only with its answer: one whose answer was lost is a miss', () => {
  const result = resultOfWebPage({
    fetch_status: 'done',
    network_log: [
      { url: 'http://127.0.0.11/items/1', type: 'document', http_status: 200 },
      { url: 'http://127.0.0.11/api/items/1/content', type: 'xhr', http_status: 200 },
      { url: 'http://127.0.0.11/api/items/1/related', type: 'xhr', http_status: null },
      { url: 'http://127.0.0.11/api/items/1/late', type: 'xhr', http_status: 404 },
    ],
    link_list: [{}, {}],
  });
  expect(result).toEqual({
    isSuccess: true,
    xhrUrls: ['http://127.0.0.11/api/items/1/content', 'http://127.0.0.11/api/items/1/late'],
    linkCount: 2,
  });
});

test('a page that is not done is a failed render', () => {
  expect(resultOfWebPage({ fetch_status: 'failed', network_log: [], link_list: [] })).toEqual({
    isSuccess: false,
    failure: 'fetch_status failed',
  });
});
