import { contentHash, urlHash } from '../../services/common/url';
import { checkWebPageObject } from './web-page-object-check';

function validPage(): Record<string, unknown> {
  const url = 'http://127.0.0.2:8181/csr';
  const html = '<html lang="en"><head><title>Live articles</title></head><body>Hello</body></html>';
  return {
    object_id: '5f0c6e2a9d8b4f17a3c2e1d0b9a87654',
    url,
    url_hash: urlHash(url),
    final_url: url,
    http_status: 200,
    fetch_status: 'done',
    is_rendered: true,
    rendered_html: html,
    response_body: null,
    content_type: 'text/html; charset=utf-8',
    content_hash: contentHash(html),
    title: 'Live articles',
    lang: 'en',
    etag: null,
    last_modified_at: null,
    fetched_at: '2026-08-15T07:47:52Z',
    render_duration_ms: 700,
    network_log: [
      { url, type: 'document', method: 'GET', http_status: 200 },
      { url: 'http://127.0.0.2:8181/api/a', type: 'xhr', method: 'GET', http_status: 500 },
      { url: 'http://127.0.0.2:8181/api/b', type: 'xhr', method: 'GET', http_status: 403 },
    ],
    console_errors: [],
    link_list: [
      { url: 'http://127.0.0.2:8181/', rel: '', dom_position: 'navigation', anchor_text: 'Home' },
    ],
    health_signal: {
      xhr_total_count: 2,
      xhr_error_count: 1,
      xhr_throttled_count: 0,
      xhr_denied_count: 1,
      has_console_error: false,
      redirect_target_hash: urlHash(url),
    },
  };
}

const problems = (page: unknown) =>
  checkWebPageObject(page)
    .filter((check) => check.verdict !== 'ok')
    .map((check) => `${check.field}: ${check.verdict}`);

describe('the M0 field check', () => {
  it('accepts a page object that matches the contract, field by field', () => {
    const checks = checkWebPageObject(validPage());
    expect(checks.filter((check) => check.verdict !== 'ok')).toEqual([]);
    expect(checks.map((check) => check.field)).toHaveLength(21);
  });

  it('names a missing field, a wrong type and an unknown enum value', () => {
    const page = validPage();
    delete page.title;
    page.http_status = '200';
    page.fetch_status = 'not_modified';
    expect(problems(page)).toEqual(['http_status: wrong', 'fetch_status: wrong', 'title: missing']);
  });

  it('checks the relations the contract states between fields', () => {
    const page = validPage();
    page.url_hash = '00000000000000000000000000000000';
    page.content_hash = urlHash('http://other.example/');
    (page.health_signal as Record<string, unknown>).xhr_denied_count = 0;
    (page.link_list as Array<Record<string, unknown>>)[0].url = 'HTTP://127.0.0.2:8181/#top';
    expect(problems(page)).toEqual([
      'url_hash: wrong',
      'content_hash: wrong',
      'link_list: wrong',
      'health_signal: wrong',
    ]);
  });

  it('tolerates a field the contract does not know, and says so', () => {
    const checks = checkWebPageObject({ ...validPage(), shard_hint: 'eu-1' });
    expect(checks.at(-1)).toEqual({
      field: 'shard_hint',
      verdict: 'ok',
      detail: 'not in the contract (tolerated)',
    });
  });

  it('shows health_signal whole, every key with its value', () => {
    const line = checkWebPageObject(validPage()).find((check) => check.field === 'health_signal');
    expect(line?.detail).toBe(
      'xhr_total_count=2 xhr_error_count=1 xhr_throttled_count=0 xhr_denied_count=1 ' +
        `has_console_error=false redirect_target_hash="${urlHash('http://127.0.0.2:8181/csr')}"`,
    );
  });

  it('refuses an answer that is not an object', () => {
    expect(problems([])).toEqual(['(object): wrong']);
  });
});
