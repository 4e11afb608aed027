import { mainTextOf } from './main-text';

const PAGE = [
  '<html><head><title>Title words</title><style>.x{}</style></head><body>',
  '<header><a href="/">Home</a></header>',
  '<main id="app"><article><h1>First article</h1><p>The body.</p>',
  '<script>var hidden = "script text";</script><p hidden>Hidden text</p>',
  '<p style="display: none">Styled away</p></article><aside>In main too</aside></main>',
  '<footer>Footer words</footer></body></html>',
].join('');

describe('mainTextOf', () => {
  it('reads the first match of the wait_selector, visible text only', () => {
    expect(mainTextOf(PAGE, '#app > article')).toBe('First article The body.');
  });

  it('falls back to <main>, then to <body>, when the selector matches nothing or is unreadable', () => {
    expect(mainTextOf(PAGE, '.missing')).toBe('First article The body. In main too');
    expect(mainTextOf(PAGE, 'p[[')).toBe('First article The body. In main too');
    expect(mainTextOf(PAGE, null)).toBe('First article The body. In main too');
    expect(mainTextOf('<body><p>Only the body</p><script>x()</script></body>', null)).toBe(
      'Only the body',
    );
  });
});
