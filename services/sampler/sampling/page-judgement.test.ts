import { analysePage } from './page-analysis';
import { judgePage, measurePage, type PageJudgement } from './page-judgement';
import { DEFAULT_VERDICT_THRESHOLDS } from './sampling-policy';
import { tokenize } from './text-tokens';
import {
  ARTICLE,
  ARTICLE_TEXT,
  CHROME,
  CSR,
  page,
  PARTIAL,
  SSR,
} from './testing/sampling-test-pages';

function judge(
  plain: string | null,
  rendered: string,
  finalUrl = 'http://site.test/articles/1',
): PageJudgement {
  return judgePage(
    {
      plain: plain === null ? null : analysePage(plain),
      rendered: analysePage(rendered),
      renderedFinalUrl: finalUrl,
    },
    DEFAULT_VERDICT_THRESHOLDS,
  );
}

describe('tokenize', () => {
  it('splits words in spaced scripts and bigrams in CJK, dropping one-letter words', () => {
    expect(tokenize('A Bridge, re-opened in 2024!')).toEqual([
      'bridge',
      're',
      'opened',
      'in',
      '2024',
    ]);
    expect(tokenize('地铁新线路')).toEqual(['地铁', '铁新', '新线', '线路']);
    expect(tokenize('React框架')).toEqual(['react', '框架']);
  });
});

describe('judgePage', () => {
  it('judges a page whose content only exists after rendering csr', () => {
    const judgement = judge(CSR.plain, CSR.rendered);
    expect(judgement.kind).toBe('csr');
    if (judgement.kind !== 'csr') return;
    expect(judgement.measures.renderOnlyShare).toBe(1);
    expect(judgement.evidenceList.join(' ')).toContain('empty mount point in plain HTML: #root');
  });

  it('judges a page whose plain HTML already carries the content ssr', () => {
    const judgement = judge(SSR.plain, SSR.rendered);
    expect(judgement.kind).toBe('ssr');
    if (judgement.kind === 'ssr') expect(judgement.confidence).toBeGreaterThan(0.9);
  });

  it('judges a server shell around a client-filled main partial', () => {
    const judgement = judge(PARTIAL.plain, PARTIAL.rendered);
    expect(judgement.kind).toBe('partial');
    if (judgement.kind !== 'partial') return;
    // Render-only like csr (a few words the chrome shares with the article are covered)…
    expect(judgement.measures.renderOnlyShare).toBeGreaterThanOrEqual(
      DEFAULT_VERDICT_THRESHOLDS.csrMinRenderOnlyShare,
    );
    // …but the server sent a real shell.
    expect(judgement.measures.serverShare).toBeGreaterThanOrEqual(
      DEFAULT_VERDICT_THRESHOLDS.partialMinServerShare,
    );
  });

  it('judges a page where half the main content arrives later partial', () => {
    const half = `<article><h1>Harbour bridge reopens</h1><p>${ARTICLE_TEXT[0]}</p></article>`;
    const judgement = judge(page(`<main>${half}</main>`), page(`<main>${ARTICLE}</main>`));
    expect(judgement.kind).toBe('partial');
  });

  it('treats hydration JSON in the plain page as data, not as visible content (csr)', () => {
    const payload = JSON.stringify({
      props: { pageProps: { title: 'Harbour bridge reopens', paragraphs: ARTICLE_TEXT } },
    });
    const plain = page(
      `<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${payload}</script>`,
    );
    const rendered = page(
      `<div id="__next">${ARTICLE}</div><script id="__NEXT_DATA__" type="application/json">${payload}</script>`,
    );
    const judgement = judge(plain, rendered);
    expect(judgement.kind).toBe('csr');
    if (judgement.kind !== 'csr') return;
    expect(judgement.measures.payloadShare).toBeGreaterThan(0.9);
    expect(judgement.evidenceList.join(' ')).toContain('hydration payload #__NEXT_DATA__');
  });

  it('keeps server-rendered text with a hydration payload ssr', () => {
    const payload = JSON.stringify({ props: { pageProps: { paragraphs: ARTICLE_TEXT } } });
    const html = page(
      `<div id="__next"><main>${ARTICLE}</main></div><script id="__NEXT_DATA__" type="application/json">${payload}</script>`,
    );
    expect(judge(html, html).kind).toBe('ssr');
  });

  it('does not count a script-injected cookie banner or a noscript notice as content', () => {
    const banner =
      '<div id="cookie-consent"><p>We use cookies to personalise content, to provide social media features and to analyse our traffic. You can change your choice at any time in the settings.</p></div>';
    const plain = page(
      `<main>${ARTICLE}</main><noscript>Please enable JavaScript for the best experience</noscript>`,
    );
    const judgement = judge(plain, page(`<main>${ARTICLE}</main>${banner}`));
    expect(judgement.kind).toBe('ssr');
    if (judgement.kind === 'ssr') expect(judgement.measures.renderOnlyShare).toBe(0);
  });

  it('judges CJK pages by character bigrams', () => {
    const text =
      '本市第六条地铁线路将于本周末开通试运营，全长约二十八公里，共设二十一座车站，连接老城区与东部新区。';
    const plain = page('<div id="app"></div>', { lang: 'zh-CN' });
    const rendered = page(
      `<div id="app"><article><h1>地铁新线路</h1><p>${text}</p></article></div>`,
      { lang: 'zh-CN' },
    );
    expect(judge(plain, rendered).kind).toBe('csr');
    expect(judge(rendered, rendered).kind).toBe('ssr');
    expect(analysePage(rendered).language).toBe('zh');
  });

  it('calls a page without content thin, and content that vanished inconsistent', () => {
    expect(judge(page('<div id="root"></div>'), page('<div id="root"></div>')).kind).toBe('thin');
    expect(judge(page(`<main>${ARTICLE}</main>`), page('<div id="root"></div>')).kind).toBe(
      'inconsistent',
    );
  });

  it('calls a page that a script replaced with other content inconsistent', () => {
    const other =
      '<main><article><h1>Quarterly results</h1><p>The regional farming cooperative reported steady revenue for the third quarter, as higher grain prices offset a weaker apple harvest in the eastern valleys and members approved a shared cold store.</p></article></main>';
    expect(judge(page(`<main>${ARTICLE}</main>`), page(other)).kind).toBe('inconsistent');
  });

  it('recognizes a login wall, but not a login box on a content page', () => {
    const form =
      '<form><label>Email <input type="email"></label><label>Password <input type="password"></label><button>Sign in</button></form>';
    const wall = page(
      `<main><h1>Sign in</h1><p>Members only. Please sign in to continue reading.</p>${form}</main>`,
    );
    expect(judge(wall, wall, 'http://site.test/login?next=%2F').kind).toBe('login');
    const forum = page(
      `${CHROME.header.replace('</header>', `${form}</header>`)}<main>${ARTICLE}${ARTICLE}</main>`,
    );
    expect(judge(forum, forum).kind).toBe('ssr');
  });

  it('recognizes a challenge interstitial with the shared heuristic', () => {
    const challenge = page(
      '<h1>Checking if the site connection is secure</h1><script src="/cdn-cgi/challenge-platform/h/g/orchestrate"></script>',
      { title: 'Just a moment...' },
    );
    expect(judge(null, challenge).kind).toBe('challenge');
  });

  it('measures against the plain page’s whole visible text, chrome included', () => {
    // Text the server shows in an aside is still server text when the client repeats it in main.
    const plain = page(`<aside><p>${ARTICLE_TEXT.join(' ')}</p></aside><div id="root"></div>`);
    const rendered = page(
      `<aside><p>${ARTICLE_TEXT.join(' ')}</p></aside><div id="root"><p>${ARTICLE_TEXT.join(' ')}</p></div>`,
    );
    expect(measurePage(analysePage(plain), analysePage(rendered)).renderOnlyShare).toBe(0);
  });
});
