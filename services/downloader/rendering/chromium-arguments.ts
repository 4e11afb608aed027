import { availableParallelism } from 'node:os';

/**
 * Command-line flags for the render browser, each with its reason.
 *
 * Outbound safety does not rest on Chromium's good behaviour: every connection it makes goes
 * through a proxy, and it is told never to resolve a name itself. Pages render in a browser
 * context whose proxy is the egress proxy (which resolves and checks; browser-generation.ts); the
 * browser-wide proxy given here, `browserProxyUrl`, is where Chromium's own traffic goes — the
 * BrowserTrafficRefuser, which refuses all of it. The remaining flags keep a headless Chromium
 * from phoning home and keep its cost low on a small machine.
 */
/**
 * The proxy bypass list of the browser and of the pages' context: Chromium bypasses proxies for
 * loopback by default; loopback targets must be checked too.
 */
export const LOOPBACK_NOT_BYPASSED = '<-loopback>';

/**
 * Renderer processes a browser keeps, by default: two per core. Past the limit Chromium puts a new
 * document into an existing renderer instead of starting one; below it, every navigation of a
 * reused page to another site started a process (site isolation is off, but a browser-initiated
 * cross-site navigation still swaps processes) — 0.4 process starts per page in a crawl over 3
 * hosts, ~130 renderer processes in 30 s. With the limit the same crawl kept 4 processes and ran
 * at 0.88 of what its rules allowed instead of 0.79–0.83 (`npm run bench:crawl`, 2026-12-01,
 * 2 cores; a limit of one per core, 0.81, starved the pages of main threads). The price: pages
 * share a process, so one page's crash or busy main thread touches the others there — each render
 * still has its own deadline and crash watch, and no page holds a user's secrets for another to
 * read (the crawler signs in nowhere; site isolation was off already).
 */
export const DEFAULT_RENDERER_PROCESS_LIMIT = 2 * availableParallelism();

/*
 * BACK_FORWARD_CACHE_NOTE — why the back/forward cache is off. A pooled page goes from one URL
 * to the next; with the cache on (Chromium's default, headless included), a document it leaves
 * stays alive in its renderer, frozen, for a "back" a crawler never takes (back-forward-cache.test.ts
 * sees it happen even to a `no-store` page). Over cacheable pages (`npm run bench:render --
 * --contenders service,bare --bare-sweep 16 --rounds 1 --pages 500 --many-domain-hosts 0
 * --api-pages 0 --cacheable-pages`, 2026-12-02, 2 cores, two alternating pairs) the downloader
 * peaked at 1177 / 1083 MB PSS with the cache and 876 / 815 MB without, rendered 12.89 / 12.87 vs
 * 14.47 / 14.39 pages/s at 135 / 134 vs 119 / 121 ms CPU per page; the bare loop, which shares
 * these flags, moved alike. Over the bench's default `no-store` pages it made no difference.
 */

/*
 * OMNIBOX_WEBUI_NOTE — why the omnibox popup's WebUI is off. Chromium (156 here) gives every
 * browser window, headless ones included, an omnibox whose suggestion popup is a WebUI page
 * (chrome://omnibox-popup.top-chrome/, with its AI-mode variant), preloaded in a renderer process
 * of its own (`--top-chrome-webui`). Nobody ever opens it in a crawler: ~60 MB PSS, and it counts
 * towards --renderer-process-limit, so the pages had one renderer fewer than the limit says (3 of
 * 4 on 2 cores). Features WebUIOmniboxPopup and WebUIOmniboxAimPopup off: no such renderer
 * (browser-ui-renderer.test.ts, which also catches a Chromium that renames them — unknown names in
 * --disable-features are ignored). `npm run bench:render -- --contenders service --rounds 1
 * --pages 400 --many-domain-hosts 0 --api-pages 0`, 2026-12-02, 2 cores, alternating: with the
 * popup 8.70 / 8.01 pages/s at 187 / 190 ms CPU per page, peak PSS 825 / 808 MB; without it
 * 9.41 / 9.75 / 9.53 pages/s at 172 / 164 / 165 ms, 807 / 759 / 688 MB (the peak follows the
 * pool's size, 10–16 pages). A limit of 3 without the popup: 9.24 / 9.01 pages/s, 753 / 757 MB;
 * of 5: 9.96, 881 MB — the default stays two per core.
 */

/*
 * V8_SIZE_NOTE — why the pages' V8 is tuned for size. A renderer process holds one V8 heap for
 * the pages it hosts (four per process at 16 pages on 2 cores), and V8's default heuristics let
 * that heap grow far past what a crawled page keeps alive before collecting: in a bare puppeteer
 * loop at 16 pages over the bench pages (scripts/bench-render, the peers' flags, 800 pages) the
 * four renderers peaked at 698–946 MB PSS at 29.2–29.5 pages/s, with `--optimize-for-size` at
 * 465–470 MB at 28.9–29.2 pages/s (four runs each). The flag makes V8 grow its heaps slower and
 * collect sooner, and spends less on optimising code that runs once — a crawled page's scripts
 * mostly do.
 */

export function chromiumArguments(
  browserProxyUrl: string,
  rendererProcessLimit: number = DEFAULT_RENDERER_PROCESS_LIMIT,
): string[] {
  return [
    // Root in a container cannot use the setuid/user-namespace sandbox; the proxy is what keeps
    // pages off internal networks.
    '--no-sandbox',
    // Background services (updates, sync, time, sign-in checks) would otherwise contact Google.
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-gpu',
    // QUIC is UDP: it could not go through an HTTP proxy.
    '--disable-quic',
    // WebRTC may send UDP straight to the network; allow only what goes through the proxy. The
    // headless shell reads the first switch, the full browser (156) only the second: with the
    // first alone it sent a page's STUN requests straight to the address the page named
    // (webrtc-udp.test.ts, on both builds, fails without either switch).
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    `--proxy-server=${browserProxyUrl}`,
    `--proxy-bypass-list=${LOOPBACK_NOT_BYPASSED}`,
    // Names are resolved by the proxy under the destination policy, never by Chromium itself
    // (the proxy address is a literal, excluded so the proxy stays reachable).
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    // No image is ever fetched — including CSS backgrounds and extension-less URLs, which no URL
    // pattern can catch. Fonts and media are blocked by URL pattern (blocked-resources.ts).
    '--blink-settings=imagesEnabled=false',
    // One renderer process for cross-site iframes: their Network/Runtime events then reach the
    // page's own CDP session (no out-of-process-iframe sessions to chase), and two cores are spared
    // a process per site.
    '--disable-site-isolation-trials',
    // BackForwardCache: see BACK_FORWARD_CACHE_NOTE above; WebUIOmnibox*: OMNIBOX_WEBUI_NOTE.
    '--disable-features=IsolateOrigins,site-per-process,NetworkTimeServiceQuerying,OptimizationGuideModelDownloading,BackForwardCache,WebUIOmniboxPopup,WebUIOmniboxAimPopup',
    // No page opens another (window.open, target=_blank): a popup would be a request to the site
    // outside the rate limit, rendered by nobody. The full browser's popup blocker does this for
    // popups without a user gesture (puppeteer's --disable-popup-blocking is dropped in
    // browser-launch.ts); the headless shell has no popup blocker and reads this switch instead.
    '--block-new-web-contents',
    // /dev/shm is small in containers; Chromium crashes when it runs out.
    '--disable-dev-shm-usage',
    // Pages share a few renderer processes instead of starting one per navigation (see above); the
    // limit counts every renderer, Chromium's own WebUI ones too (OMNIBOX_WEBUI_NOTE).
    `--renderer-process-limit=${rendererProcessLimit}`,
    // The pages' V8 heaps grow slower and are collected sooner: V8_SIZE_NOTE above.
    '--js-flags=--optimize-for-size',
  ];
}
