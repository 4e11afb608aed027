import { describeFindings, fixtureFindings } from './gate-test-support';

describe('storage-key', () => {
  test("passes keys under the service's own prefix and listed tables; prose is not a key", () => {
    expect(describeFindings(fixtureFindings('storage-key', 'pass'))).toEqual([]);
  });

  test('reports malformed, foreign, unlisted and crs: keys, in services/ and in CONTRACT.md', () => {
    const findings = fixtureFindings('storage-key', 'fail');
    const render = 'services/downloader/render.ts';
    expect(describeFindings(findings)).toEqual([
      'CONTRACT.md:9:3 storage-key → downloader:web_page_object:{object_id}',
      'CONTRACT.md:10:3 storage-key',
      'CONTRACT.md:11:3 storage-key',
      'CONTRACT.md:12:3 storage-key',
      'CONTRACT.md:12:3 storage-key → schedule_task',
      'CONTRACT.md:13:3 storage-key → scheduler:domain_rule_task:{domain}',
      'services/common/keys.ts:2:42 storage-key',
      `${render}:7:26 storage-key → downloader:web_page_object:abc`,
      `${render}:8:27 storage-key → downloader:url_task:abc`,
      `${render}:9:78 storage-key`,
      `${render}:10:25 storage-key`,
      `${render}:11:24 storage-key → scheduler`,
      `${render}:12:50 storage-key → downloader`,
      `${render}:13:44 storage-key → web_page_object`,
    ]);
    expect(findings[6].message).toContain("hard-coded outside a service's folder");
    expect(findings[8].message).toContain('builds a key under `scheduler:`');
    expect(findings[9].message).toContain("(it is scheduler's)");
    expect(findings[10].message).toContain('(4 parts)');
  });
});
