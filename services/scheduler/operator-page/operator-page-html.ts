import { OPERATOR_PAGE_BASE_CSS } from '../../common/operator-page/operator-page-toolkit';

/**
 * The operator page's document. It holds no data and no secret: the script asks for the bearer
 * token (or reads it from the URL fragment, which browsers never send to the server) and fetches
 * GET /v1/operator/frontier-summary itself.
 */
export const OPERATOR_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Scheduler — URL frontier</title>
  <link rel="stylesheet" href="/operator/assets/page.css">
</head>
<body>
  <header>
    <h1>Scheduler — URL frontier</h1>
    <p id="status" role="status">Loading…</p>
  </header>

  <form id="token-form" hidden>
    <label for="token-input">Scheduler token (SCHEDULER_TOKEN)</label>
    <input id="token-input" type="password" autocomplete="off" required>
    <button type="submit">Show the frontier</button>
    <p class="hint">Kept in this tab only (sessionStorage). You can also open
      <code>/operator#token=…</code>: the part after # never reaches the server or its logs.</p>
  </form>

  <main id="view" hidden>
    <section class="controls">
      <label>Domain rows <input id="limit-input" type="number" min="1" max="1000" value="100"></label>
      <label><input id="auto-refresh" type="checkbox" checked> Refresh every 5 s</label>
      <button id="refresh-button" type="button">Refresh now</button>
      <button id="forget-button" type="button">Forget token</button>
    </section>

    <section class="cards">
      <div class="card"><span class="figure" id="live-lease-count">–</span><span>live leases</span></div>
      <div class="card"><span class="figure" id="expired-lease-count">–</span><span>leases expired and reclaimed (24 h)</span></div>
      <div class="card"><span class="figure" id="due-url-count">–</span><span>URLs queued</span></div>
      <div class="card"><span class="figure" id="paused-domain-count">–</span><span>domains paused or probing (in the rows shown)</span></div>
    </section>

    <div class="columns">
      <section>
        <h2>Queue depth by state</h2>
        <table id="url-state-table"><thead><tr><th>url_state</th><th class="number">URLs</th></tr></thead><tbody></tbody></table>
      </section>
      <section>
        <h2>Reports in the last 24 h</h2>
        <table id="report-status-table"><thead><tr><th>fetch_status</th><th class="number">results</th></tr></thead><tbody></tbody></table>
      </section>
    </div>

    <section>
      <h2>Domains <small>(paused and probing first, then the busiest; idle healthy domains are left out)</small></h2>
      <table id="domain-table">
        <thead><tr><th>domain</th><th>verdict</th><th class="number">due now</th><th class="number">in flight</th><th>health</th><th>next probe</th></tr></thead>
        <tbody></tbody>
      </table>
    </section>
  </main>
  <script src="/operator/assets/page.js"></script>
</body>
</html>
`;

export const OPERATOR_PAGE_CSS = `${OPERATOR_PAGE_BASE_CSS}
.state-paused, .state-probing { color: #a4161a; font-weight: 600; }
`;
