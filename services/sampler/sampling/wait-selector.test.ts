import { analysePage } from './page-analysis';
import { ARTICLE, page } from './testing/sampling-test-pages';
import {
  delayedContentSelector,
  deriveWaitSelector,
  matchesEveryRenderedPage,
  type WaitSelectorPage,
} from './wait-selector';

function pageOf(plain: string, rendered: string): WaitSelectorPage {
  return { plain: analysePage(plain), rendered: analysePage(rendered) };
}

describe('deriveWaitSelector', () => {
  it('picks a landmark that only exists after rendering over the mount point the plain page has', () => {
    const pages = [
      pageOf(
        page('<div id="root"></div>'),
        page(`<div id="root"><div class="shell"><main>${ARTICLE}</main></div></div>`),
      ),
      pageOf(
        page('<div id="root"></div>'),
        page(
          `<div id="root"><div class="shell"><main>${ARTICLE.replace('Harbour', 'Ferry')}</main></div></div>`,
        ),
      ),
    ];
    const choice = deriveWaitSelector(pages);
    expect(choice).toEqual({ selector: 'main', coverage: 1, isAbsentFromPlain: true });
    expect(matchesEveryRenderedPage('main', pages)).toBe(true);
  });

  it('waits for the first child of an empty mount point when nothing else names the content', () => {
    const rendered = page(
      `<div id="app"><div><div>${ARTICLE.replace(/<\/?article>/g, '')
        .replace(/<(\/?)h1>/g, '<$1div>')
        .replace(/<(\/?)p>/g, '<$1div>')}</div></div></div>`,
    );
    const choice = deriveWaitSelector([pageOf(page('<div id="app"></div>'), rendered)]);
    expect(choice?.selector).toBe('#app > *');
    expect(choice?.isAbsentFromPlain).toBe(true);
  });

  it('never offers generated ids or hashed and state classes', () => {
    const rendered = page(
      `<div id="root"><section id="r-1x9a2" class="css-1q2w3e styles_main__3xQ1s is-loaded active">${ARTICLE.replace('<article>', '<div>').replace('</article>', '</div>')}</section></div>`,
    );
    const choice = deriveWaitSelector([pageOf(page('<div id="root"></div>'), rendered)]);
    expect(choice?.selector).toBe('#root > *');
  });

  it('returns null when no selector holds the content on every page', () => {
    const first = pageOf(
      page('<div id="x"></div>'),
      page(
        `<section class="story">${ARTICLE.replace('<article>', '<div>').replace('</article>', '</div>')}</section>`,
      ),
    );
    const second = pageOf(
      page('<div id="x"></div>'),
      page(
        `<div class="listing">${ARTICLE.replace('<article>', '<span>').replace('</article>', '</span>')}</div>`,
      ),
    );
    expect(deriveWaitSelector([first, second])).toBeNull();
  });

  it('checks candidate selectors against every rendered page', () => {
    const pages = [
      pageOf(page(''), page(`<main>${ARTICLE}</main>`)),
      pageOf(page(''), page(`<div>${ARTICLE}</div>`)),
    ];
    expect(matchesEveryRenderedPage('main', pages)).toBe(false);
    expect(matchesEveryRenderedPage('article', pages)).toBe(true);
  });
});

describe('delayedContentSelector', () => {
  it('waits for content elements the page lacks or a child of a still empty mount point, without :is()', () => {
    const selector = delayedContentSelector(
      analysePage(page('<h1>Shop</h1><div id="root"></div>')),
    );
    expect(selector).not.toContain(':is(');
    expect(selector?.split(', ')).toEqual(expect.arrayContaining(['article', 'p', '#root > *']));
    expect(selector?.split(', ')).not.toContain('h1');
  });

  it('has nothing to wait for when every content element is already there', () => {
    const all =
      '<article><main><h1>a</h1><h2>b</h2><h3>c</h3><p>d</p><ul><li>e</li></ul><table></table><pre></pre><blockquote></blockquote><dl><dd>f</dd></dl></main></article>';
    expect(delayedContentSelector(analysePage(page(all)))).toBeNull();
  });
});
