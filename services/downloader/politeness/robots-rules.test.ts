import { isRobotsTxtUrl, robotsPolicyOf, RobotsRules, robotsTxtUrlOf } from './robots-rules';

describe('RFC 9309 outcomes of a robots.txt fetch', () => {
  it.each([
    [200, undefined, 'follow_rules'],
    [404, undefined, 'allow_all'],
    [403, undefined, 'allow_all'],
    [429, undefined, 'disallow_all'],
    [500, undefined, 'disallow_all'],
    [503, undefined, 'disallow_all'],
    [null, 'connection_failed', 'disallow_all'],
    [null, 'navigation_timeout', 'disallow_all'],
    [null, 'dns_resolution_failed', 'disallow_all'],
    [null, 'http_client_error', 'allow_all'], // a redirect loop: "unavailable"
  ] as const)('status %p (%p) → %s', (httpStatus, failReason, policy) => {
    expect(robotsPolicyOf({ httpStatus, body: null, failReason })).toBe(policy);
  });
});

function rules(
  body: string,
  policy: 'follow_rules' | 'allow_all' | 'disallow_all' = 'follow_rules',
) {
  return new RobotsRules({
    domain: 'site.test',
    robots_txt_url: 'https://site.test/robots.txt',
    robots_policy: policy,
    http_status: 200,
    robots_txt: body,
    fetched_at: '2026-08-15T07:47:52Z',
    expires_at: '2026-08-16T07:47:52Z',
  });
}

describe('deciding a URL', () => {
  const body = [
    'User-agent: *',
    'Disallow: /private/',
    '',
    'User-agent: RenderCrawler',
    'Disallow: /no-renderers/',
    'Allow: /private/open',
  ].join('\n');

  it('applies our own group when robots.txt names our token, else the * group', () => {
    const parsed = rules(body);
    expect(parsed.isAllowed('https://site.test/no-renderers/x', 'RenderCrawler')).toBe(false);
    expect(parsed.isAllowed('https://site.test/private/open', 'RenderCrawler')).toBe(true);
    expect(parsed.isAllowed('https://site.test/private/x', 'OtherBot')).toBe(false);
    expect(parsed.isAllowed('https://site.test/no-renderers/x', 'OtherBot')).toBe(true);
    expect(parsed.isAllowed('https://site.test/', 'RenderCrawler')).toBe(true);
  });

  it('allows or refuses everything for the fallback policies, and refuses another origin', () => {
    expect(rules('', 'allow_all').isAllowed('https://site.test/private/x', 'RenderCrawler')).toBe(
      true,
    );
    expect(rules(body, 'disallow_all').isAllowed('https://site.test/', 'RenderCrawler')).toBe(
      false,
    );
    expect(rules(body).isAllowed('https://other.test/', 'RenderCrawler')).toBe(false);
  });

  it('derives the robots.txt of a URL from its origin, port included', () => {
    expect(robotsTxtUrlOf('http://127.0.0.2:8080/a/b?c')).toBe('http://127.0.0.2:8080/robots.txt');
    expect(isRobotsTxtUrl('https://site.test/robots.txt')).toBe(true);
    expect(isRobotsTxtUrl('https://site.test/robots.txt?x=1')).toBe(false);
  });
});
