import { DemoSite, startDemoSite } from './demo-site';

describe('demo site', () => {
  let site: DemoSite;
  let first: string;

  beforeAll(async () => {
    site = await startDemoSite({ crawlDelaySeconds: 2 });
    first = site.baseUrls[0];
  });

  afterAll(async () => {
    await site.stop();
  });

  test('serves one host per loopback address', () => {
    expect(site.hosts).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4']);
    site.baseUrls.forEach((baseUrl, index) =>
      expect(baseUrl).toMatch(new RegExp(`^http://${site.hosts[index]}:\\d+$`)),
    );
  });

  test('robots.txt disallows one path and announces Crawl-delay and the sitemap', async () => {
    const text = await (await fetch(`${first}/robots.txt`)).text();
    expect(text.match(/^Disallow:/gm)).toHaveLength(1);
    expect(text).toContain('Disallow: /private/');
    expect(text).toContain('Crawl-delay: 2');
    expect(text).toContain(`Sitemap: ${first}/sitemap.xml`);
  });

  test('sitemap.xml lists this host’s pages', async () => {
    const xml = await (await fetch(`${first}/sitemap.xml`)).text();
    expect(xml).toContain(`<loc>${first}/articles/1</loc>`);
    expect(xml).not.toContain(site.baseUrls[1]);
    expect(xml).not.toContain('/private/');
  });

  test('answers conditional requests with 304 for both validators', async () => {
    const fresh = await fetch(`${first}/articles/1`);
    const etag = fresh.headers.get('etag') as string;
    const lastModified = fresh.headers.get('last-modified') as string;
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    expect(
      (await fetch(`${first}/articles/1`, { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
    expect(
      (await fetch(`${first}/articles/1`, { headers: { 'if-modified-since': lastModified } }))
        .status,
    ).toBe(304);
    expect(
      (await fetch(`${first}/articles/1`, { headers: { 'if-none-match': '"other"' } })).status,
    ).toBe(200);
  });

  test('links pages across hosts and marks nofollow links', async () => {
    const html = await (await fetch(`${first}/`)).text();
    expect(html).toContain(`href="${site.baseUrls[1]}/"`);
    expect(html).toContain('rel="nofollow sponsored"');
    expect(html).toMatch(/<footer>.*Internal report.*<\/footer>/s);
  });

  test('delivers csr content and failing XHR endpoints', async () => {
    const content = (await (await fetch(`${first}/api/articles`)).json()) as {
      links: { href: string }[];
    };
    expect(content.links.map((link) => link.href)).toContain('/articles/4');
    for (const status of [500, 429, 403]) {
      expect((await fetch(`${first}/api/fail?status=${status}`)).status).toBe(status);
    }
    expect(
      (await fetch(`${first}/redirect?to=/about`, { redirect: 'manual' })).headers.get('location'),
    ).toBe('/about');
  });

  test('the reachable set follows links, skipping nofollow-only and disallowed pages', () => {
    const reachable = new Set(site.reachableUrls);
    for (const baseUrl of site.baseUrls) {
      for (const path of ['/', '/about', '/csr', '/articles/1', '/articles/4', '/console-error']) {
        expect(reachable).toContain(`${baseUrl}${path}`);
      }
      expect(reachable).not.toContain(`${baseUrl}/private/report`);
      expect(reachable).not.toContain(`${baseUrl}/nofollow-only`);
      expect(reachable).not.toContain(`${baseUrl}/challenge`);
    }
    expect(site.reachableUrls).toHaveLength(24);
  });

  test('keeps a per-host access log with millisecond timestamps, readable over an unlogged endpoint', async () => {
    site.accessLog.clear();
    const before = Date.now();
    await fetch(`${site.baseUrls[1]}/about`, { headers: { 'user-agent': 'LogTest/1.0' } });
    await fetch(`${site.baseUrls[1]}/missing`);
    const entries = site.accessLog.list('127.0.0.3');
    expect(entries.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/about', status: 200 },
      { method: 'GET', path: '/missing', status: 404 },
    ]);
    expect(entries[0].receivedAtMs).toBeGreaterThanOrEqual(before);
    expect(entries[0].receivedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(entries[0].userAgent).toBe('LogTest/1.0');
    expect(site.accessLog.list('127.0.0.2')).toEqual([]);

    const overHttp = (await (await fetch(`${site.controlUrl}?host=127.0.0.3`)).json()) as {
      entries: unknown[];
    };
    expect(overHttp.entries).toHaveLength(2);
    expect(site.accessLog.list()).toHaveLength(2);
    expect((await fetch(site.controlUrl, { method: 'DELETE' })).status).toBe(204);
    expect(site.accessLog.list()).toEqual([]);
  });
});
