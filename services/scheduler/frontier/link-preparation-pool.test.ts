import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pino from 'pino';
import vectors from '../../common/url/url-normalization-vectors.json';
import { parseFrontierUrl, type FrontierUrl } from './frontier-url';
import { KnownUrlSet } from './known-url-set';
import { LinkPreparationPool } from './link-preparation-pool';

/** Links as reports carry them: the normalization vectors' inputs, refused ones included. */
const LINK_URLS = [
  ...vectors.normalized.map((vector) => vector.input),
  ...vectors.rejected.map((vector) => vector.input),
  'ftp://files.example/a',
  'https://user:secret@example.com/',
  'not a url',
  'https://例え.テスト/パス?q=値#frag',
];

function capturedLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: pino({}, { write: (line: string) => lines.push(line) }), lines };
}

describe('LinkPreparationPool', () => {
  it('answers what parseFrontierUrl answers, in order, from its threads', async () => {
    const { logger, lines } = capturedLogger();
    const pool = new LinkPreparationPool(2, logger);
    try {
      const expected = LINK_URLS.map(parseFrontierUrl);
      expect(expected.some((entry) => typeof entry === 'string')).toBe(true);
      expect(expected.some((entry) => typeof entry !== 'string')).toBe(true);
      // Several reports at once, dealt to both threads.
      const answers = await Promise.all([
        pool.parse(LINK_URLS),
        pool.parse([...LINK_URLS].reverse()),
        pool.parse(LINK_URLS.slice(3)),
      ]);
      expect(answers[0]).toEqual(expected);
      expect(answers[1]).toEqual([...expected].reverse());
      expect(answers[2]).toEqual(expected.slice(3));
      expect(pool.threadCount).toBe(2);
      expect(lines).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it('parses on the calling thread when a thread fails, the waiting report included', async () => {
    const { logger, lines } = capturedLogger();
    const pool = new LinkPreparationPool(
      1,
      logger,
      join(__dirname, 'fixtures', 'failing-link-preparation-thread'),
    );
    try {
      // The fixture thread throws on its first request: the waiting preparation is not lost.
      await expect(pool.parse(LINK_URLS)).resolves.toEqual(LINK_URLS.map(parseFrontierUrl));
      expect(pool.threadCount).toBe(0);
      await expect(pool.parse(['HTTP://Example.COM/a'])).resolves.toEqual([
        parseFrontierUrl('HTTP://Example.COM/a'),
      ]);
      expect(lines.filter((line) => line.includes('link-preparation thread failed'))).toHaveLength(
        1,
      );
    } finally {
      await pool.close();
    }
  });

  it('fails a request its thread cannot parse, and only that one', async () => {
    const { logger, lines } = capturedLogger();
    const pool = new LinkPreparationPool(1, logger);
    try {
      // Not a string: no report gets here past the contract's checks, but a fault in one
      // request must not cost the others their answers or the thread its life.
      const broken = pool.parse([null as unknown as string]);
      const fine = pool.parse(LINK_URLS);
      await expect(broken).rejects.toThrow(/link preparation failed/);
      await expect(fine).resolves.toEqual(LINK_URLS.map(parseFrontierUrl));
      expect(pool.threadCount).toBe(1);
      await expect(pool.parse(LINK_URLS.slice(0, 2))).resolves.toEqual(
        LINK_URLS.slice(0, 2).map(parseFrontierUrl),
      );
      expect(lines).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it('answers the requests still waiting when it closes', async () => {
    const { logger } = capturedLogger();
    const pool = new LinkPreparationPool(1, logger);
    pool.start();
    // Closed in the same turn: the thread cannot have answered yet.
    const waiting = pool.parse(LINK_URLS);
    await pool.close();
    await expect(waiting).resolves.toEqual(LINK_URLS.map(parseFrontierUrl));
  });

  it('does not keep a process alive once its requests are answered', () => {
    // A process that uses a pool and never closes it (a script, a tool) still ends.
    const script = [
      `const { LinkPreparationPool } = require(${JSON.stringify(join(__dirname, 'link-preparation-pool.ts'))});`,
      "const pool = new LinkPreparationPool(1, require('pino')({ level: 'silent' }));",
      "pool.parse(['HTTP://Example.COM/a']).then((parsed) => console.log(JSON.stringify(parsed)));",
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual([parseFrontierUrl('HTTP://Example.COM/a')]);
  });

  it('parses on the calling thread with no threads and after close', async () => {
    const { logger } = capturedLogger();
    const inline = new LinkPreparationPool(0, logger);
    expect(inline.threadCount).toBe(0);
    await expect(inline.parse(LINK_URLS)).resolves.toEqual(LINK_URLS.map(parseFrontierUrl));
    const closed = new LinkPreparationPool(1, logger);
    await closed.close();
    expect(closed.threadCount).toBe(0);
    await expect(closed.parse(LINK_URLS)).resolves.toEqual(LINK_URLS.map(parseFrontierUrl));
  });

  it('answers links the frontier holds as known when asked, from the tables it was shared', async () => {
    const { logger, lines } = capturedLogger();
    const pool = new LinkPreparationPool(1, logger);
    const known = new KnownUrlSet(16);
    const [held, fresh] = ['https://news.example/held', 'https://news.example/new'].map(
      (url) => parseFrontierUrl(url) as FrontierUrl,
    );
    known.add(held.urlHash);
    try {
      // Shared before the thread starts: it gets the tables when it does.
      known.watchTables((table) => pool.shareKnownUrls(table));
      const asked = await pool.parse([held.url, fresh.url, 'not a url'], { isKnownAnswered: true });
      expect(asked).toEqual([{ isKnown: true, urlHash: held.urlHash }, fresh, 'invalid_url']);
      // Not asked (a dropped URL somewhere may be revived by a link): parsed as ever.
      await expect(pool.parse([held.url, fresh.url])).resolves.toEqual([held, fresh]);
      // Shared while the thread runs: the set outgrows its first tables many times over.
      const later = Array.from(
        { length: 300 },
        (_, index) => parseFrontierUrl(`https://news.example/later-${index}`) as FrontierUrl,
      );
      for (const url of later) known.add(url.urlHash);
      const answers = await pool.parse(
        later.map((url) => url.url),
        { isKnownAnswered: true },
      );
      expect(answers).toEqual(later.map((url) => ({ isKnown: true, urlHash: url.urlHash })));
      expect(lines).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it('answers nothing as known when parsing on the calling thread', async () => {
    const { logger } = capturedLogger();
    const inline = new LinkPreparationPool(0, logger);
    const known = new KnownUrlSet();
    const held = parseFrontierUrl('https://news.example/held') as FrontierUrl;
    known.add(held.urlHash);
    known.watchTables((table) => inline.shareKnownUrls(table));
    await expect(inline.parse([held.url], { isKnownAnswered: true })).resolves.toEqual([held]);
  });
});
