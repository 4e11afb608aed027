import { RobotsFile } from './robots-file';
import { SampleUrlQueue, spreadPick } from './sample-url-queue';
import { readSitemap } from './sitemap-urls';

describe('readSitemap', () => {
  it('reads a urlset and a sitemap index, and nothing from an HTML page', () => {
    const urlset =
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://a.test/x </loc><lastmod>2024-01-01</lastmod></url><url><loc>https://a.test/y</loc></url></urlset>';
    expect(readSitemap(urlset, 10)).toEqual({
      pageUrls: ['https://a.test/x', 'https://a.test/y'],
      sitemapUrls: [],
    });
    expect(readSitemap(urlset, 1).pageUrls).toEqual(['https://a.test/x']);
    const index =
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://a.test/s1.xml</loc></sitemap></sitemapindex>';
    expect(readSitemap(index, 10)).toEqual({
      pageUrls: [],
      sitemapUrls: ['https://a.test/s1.xml'],
    });
    expect(readSitemap('<!DOCTYPE html><html><body><a href="/x">x</a></body></html>', 10)).toEqual({
      pageUrls: [],
      sitemapUrls: [],
    });
  });
});

describe('SampleUrlQueue', () => {
  const robots = new RobotsFile('https://a.test', 'User-agent: *\nDisallow: /private/\n');

  it('takes the sources in turn, keeps the domain’s allowed pages, and puts login-like paths last', () => {
    const queue = new SampleUrlQueue('a.test', robots);
    queue.addSource([
      'https://a.test/seen-1',
      'https://a.test/login',
      'https://a.test/seen-2',
      'https://b.test/other-host',
    ]);
    queue.addSource(['https://a.test/']);
    queue.addSource([
      'https://a.test/from-sitemap',
      'https://a.test/private/report',
      'https://a.test/file.pdf',
      'https://a.test/seen-1',
    ]);
    queue.addLinks([
      { url: 'https://a.test/footer-link', dom_position: 'footer' },
      { url: 'https://a.test/main-link', dom_position: 'main' },
    ]);
    const order: string[] = [];
    for (let url = queue.next(); url !== undefined; url = queue.next())
      order.push(new URL(url).pathname);
    expect(order).toEqual([
      '/seen-1',
      '/',
      '/from-sitemap',
      '/seen-2',
      '/main-link',
      '/footer-link',
      '/login',
    ]);
    expect(queue.robotsRefusedCount).toBe(1);
  });

  it('spreads a pick over the whole list', () => {
    expect(spreadPick([1, 2, 3, 4, 5, 6, 7, 8, 9], 3)).toEqual([1, 5, 9]);
    expect(spreadPick([1, 2], 5)).toEqual([1, 2]);
  });
});
