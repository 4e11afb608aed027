import { OPERATOR_PAGE_BASE_CSS } from '../../common/operator-page/operator-page-toolkit';

/**
 * The downloader's operator page (seed 001). It holds no data and no secret: the script reads the
 * bearer token from the URL fragment (never sent to the server) or a form, keeps it in this tab's
 * sessionStorage, and fetches GET /v1/operator/domain-runtime itself.
 */
export const OPERATOR_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Downloader — per-domain rate limit</title>
  <link rel="stylesheet" href="/operator/assets/page.css">
</head>
<body>
  <header>
    <h1>Downloader — per-domain rate limit</h1>
    <p class="lead"><code>downloader:domain_runtime:{domain}</code> → <code>{last_request_at, in_flight_count}</code> ·
      covers all three entries, including POST /v1/render and POST /v1/probe, which bypass the scheduler.</p>
    <p id="status" role="status">Loading…</p>
  </header>

  <form id="token-form" hidden>
    <label for="token-input">Downloader token (DOWNLOADER_TOKEN)</label>
    <input id="token-input" type="password" autocomplete="off" required>
    <button type="submit">Show the rate limit</button>
    <p class="hint">Kept in this tab only (sessionStorage). You can also open
      <code>/operator#token=…</code>: the part after # never reaches the server or its logs.</p>
  </form>

  <main id="view" hidden>
    <section class="controls">
      <label><input id="auto-refresh" type="checkbox" checked> Refresh every 5 s</label>
      <button id="refresh-button" type="button">Refresh now</button>
      <button id="forget-button" type="button">Forget token</button>
    </section>

    <h2>Current state <small>(last 24 hours · domains covered = domains this downloader sent requests to)</small></h2>
    <section class="cards">
      <div class="card"><span class="figure" id="domain-count">–</span><span>domains covered</span></div>
      <div class="card"><span class="figure" id="in-flight-count">–</span><span>requests in flight</span></div>
      <div class="card">
        <span class="figure" id="max-concurrent-count">–</span><span>max_concurrent_count (global brake)</span>
        <form id="brake-form" class="inline">
          <label for="brake-input">New value</label>
          <input id="brake-input" type="number" min="1" max="1024" required>
          <button type="submit">Apply</button>
        </form>
      </div>
      <div class="card"><span class="figure" id="over-limit-count">–</span><span>held back by the rate limit (24 h)</span>
        <span class="detail" id="over-limit-ratio">–</span></div>
    </section>
    <p class="note">Held back almost never is normal: at scale most domains are long past their interval, and
      the bottleneck is render CPU. <code>max_concurrent_count</code> is the only cost brake; it takes effect at once
      (running requests finish, new ones wait).</p>

    <h2>Page pool <small>(pages rendering at once — sized from CPU, memory and event-loop lag, up to max_concurrent_count)</small></h2>
    <section class="cards" id="page-pool">
      <div class="card"><span class="figure" id="pool-page-count">–</span><span>pages now</span>
        <span class="detail" id="pool-bounds">–</span></div>
      <div class="card"><span class="figure" id="pool-busy-count">–</span><span>rendering now</span>
        <span class="detail" id="pool-waiting">–</span></div>
      <div class="card"><span class="figure" id="pool-reason">–</span><span>last change</span>
        <span class="detail" id="pool-change">–</span></div>
      <div class="card"><span class="figure" id="pool-machine-busy">–</span><span>machine CPU busy</span>
        <span class="detail" id="pool-measures">–</span></div>
    </section>
    <p class="note">The pool grows while every page is in use and the CPU has room, and shrinks when the CPU stays
      full because of our own load, memory runs short, Node's event loop falls behind or pages stand idle. Lowering
      <code>max_concurrent_count</code> shrinks it at once; renders in flight always finish.</p>

    <h2>Domains</h2>
    <table id="domain-table">
      <thead><tr><th>domain</th><th class="number">min_interval_ms</th><th>interval source</th><th>last request</th>
        <th class="number">in flight</th><th class="number">24 h requests</th><th>rate-limit state</th><th>actions</th></tr></thead>
      <tbody></tbody>
    </table>
    <p class="pager"><button id="next-page-button" type="button" hidden>Next domains →</button>
      <button id="first-page-button" type="button" hidden>← First domains</button></p>
    <p class="note">The interval comes from the lease message (entry A, always), the caller's value, or the global
      default when a caller sent none. It is computed by the sampler from robots.txt crawl-delay and is never lowered:
      this page offers no way to change it, and its row actions reuse the recorded value. The state is the rate-limit
      state, not the domain's health (the scheduler owns that).</p>

    <section id="action-panel" hidden>
      <h2 id="action-title">Row action</h2>
      <form id="action-form">
        <label for="action-url">URL</label>
        <input id="action-url" type="url" required>
        <span id="action-interval"></span>
        <button id="action-submit" type="submit">Send</button>
        <button id="action-cancel" type="button">Close</button>
      </form>
      <p id="action-result" role="status"></p>
    </section>

    <h2>Over the limit, per entry <small>(each answers differently, on purpose)</small></h2>
    <table id="entry-table">
      <thead><tr><th>entry</th><th>over-limit behaviour</th><th class="number">24 h count</th><th>why</th></tr></thead>
      <tbody></tbody>
    </table>
    <p class="note">has_reached_origin = false is what keeps our own hiccups from pausing the whole corpus:
      the scheduler then neither backs off nor counts the probe.</p>
  </main>
  <script src="/operator/assets/page.js"></script>
</body>
</html>
`;

export const OPERATOR_PAGE_CSS = `${OPERATOR_PAGE_BASE_CSS}
.lead, .note, .detail { color: #5a6270; }
.note { max-width: 60rem; }
.cards { grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); }
form.inline { gap: .3rem; margin: .4rem 0 0; }
form.inline input { width: 5rem; }
.state-over_limit { color: #8a5a00; font-weight: 600; }
.state-backing_off, .state-paused, .error { color: #a4161a; font-weight: 600; }
td.actions button { margin-right: .3rem; }
#action-panel { margin-top: 1rem; padding: .4rem 1rem; border: 1px solid #d5d9e0; border-radius: 6px; }
#action-url { min-width: 24rem; }
`;
