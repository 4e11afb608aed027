import { OPERATOR_PAGE_BASE_CSS } from '../../common/operator-page/operator-page-toolkit';

/**
 * The sampler's operator page (seed 004): the claims of external consumers, the hints they sent
 * back and what the sampler decided, the two rates that judge the sampler, and its sampling
 * queue. It holds no data and no secret; the script fetches GET /v1/operator/domain-claims and
 * GET /v1/operator/sampling-queue with the token.
 */
export const OPERATOR_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Sampler — verdicts and external consumers</title>
  <link rel="stylesheet" href="/operator/assets/page.css">
</head>
<body>
  <header>
    <h1>Sampler — verdicts and external consumers</h1>
    <p id="status" role="status">Loading…</p>
  </header>

  <form id="token-form" hidden>
    <label for="token-input">Sampler token (SAMPLER_TOKEN)</label>
    <input id="token-input" type="password" autocomplete="off" required>
    <button type="submit">Show the sampler</button>
    <p class="hint">Kept in this tab only (sessionStorage). You can also open
      <code>/operator#token=…</code>: the part after # never reaches the server or its logs.</p>
  </form>

  <main id="view" hidden>
    <section class="controls">
      <label>Rows <input id="limit-input" type="number" min="1" max="1000" value="100"></label>
      <label><input id="auto-refresh" type="checkbox" checked> Refresh every 5 s</label>
      <button id="refresh-button" type="button">Refresh now</button>
      <button id="forget-button" type="button">Forget token</button>
    </section>

    <section class="cards">
      <div class="card"><span class="figure" id="claimed-domain-count">–</span><span>claimed domains (held by live claims)</span></div>
      <div class="card"><span class="figure" id="active-claim-count">–</span><span>active claims</span></div>
      <div class="card"><span class="figure" id="hint-count">–</span><span>hints in the last 24 h</span></div>
      <div class="card"><span class="figure" id="resolution-ratio">–</span><span>hint resolution rate (回流解决率): hints confirmed and written as rules, 24 h</span></div>
      <div class="card"><span class="figure" id="export-ratio">–</span><span>export rate (导出率): undecided domains / domains with a rule</span></div>
    </section>

    <section>
      <h2>How to read the two rates <small>(the only online measure of the sampler's quality; the &lt; 5 % miss rate is measured offline)</small></h2>
      <table id="reading-table">
        <thead><tr><th>observed</th><th>means</th><th>what to do</th></tr></thead>
        <tbody>
          <tr><td>export rate rising</td><td>the sampler is degrading: thresholds drifted, anti-bot pages spread, a language is not calibrated</td><td>recalibrate the thresholds (npm run sampler:calibrate) and compare with the baseline</td></tr>
          <tr><td>hint resolution rate high</td><td>the sampler gives up too early: what consumers can decide, it could have decided</td><td>relax the thresholds, export less</td></tr>
          <tr><td>hint resolution rate low</td><td>those domains really are beyond reach</td><td>exporting them is right; keep it so</td></tr>
        </tbody>
      </table>
    </section>

    <section>
      <h2>Claims <small>(newest first; a claim lives at most 7 days, then its domains return to re-sampling by themselves)</small></h2>
      <table id="claim-table">
        <thead><tr><th>claim_id</th><th>consumer_id</th><th class="number">domains</th><th class="number">claim_ttl_seconds</th><th>expires_at</th><th>time to expiry</th><th class="number">reported</th><th>state</th></tr></thead>
        <tbody></tbody>
      </table>
    </section>

    <section>
      <h2>Recent hints <small>(newest first; consumers only suggest, the sampler decides)</small></h2>
      <table id="hint-table">
        <thead><tr><th>domain</th><th>consumer_id</th><th>verdict</th><th>undetermined_reason</th><th class="number">confidence</th><th>sampler decision</th><th>received_at</th></tr></thead>
        <tbody></tbody>
      </table>
    </section>

    <section>
      <h2>Sampling queue</h2>
      <div class="cards">
        <div class="card"><span class="figure" id="due-count">–</span><span>due now</span></div>
        <div class="card"><span class="figure" id="in-progress-count">–</span><span>being sampled</span></div>
        <div class="card"><span class="figure" id="waiting-count">–</span><span>waiting (re-verification, 30 / 90 / 180 d backoff, retries)</span></div>
        <div class="card"><span class="figure" id="exported-domain-count">–</span><span>undecided, exported to consumers</span></div>
      </div>
      <div class="columns">
        <section>
          <h2>Domains per verdict</h2>
          <table id="verdict-table"><thead><tr><th>verdict</th><th class="number">domains</th><th>the scheduler</th></tr></thead><tbody></tbody></table>
        </section>
        <section>
          <h2>In progress and next due</h2>
          <table id="task-table">
            <thead><tr><th>domain</th><th>state</th><th>due_at</th><th>verdict</th><th>undetermined_reason</th><th class="number">errors in a row</th></tr></thead>
            <tbody></tbody>
          </table>
        </section>
      </div>
    </section>
  </main>
  <script src="/operator/assets/page.js"></script>
</body>
</html>
`;

export const OPERATOR_PAGE_CSS = `${OPERATOR_PAGE_BASE_CSS}
.state-active { color: #1a7f37; font-weight: 600; }
.state-expired, .state-revoked { color: #8a5a00; }
.decision-rejected_low_confidence, .decision-rejected_not_claimed { color: #a4161a; }
.decision-rule_written { color: #1a7f37; }
.in-progress { font-weight: 600; }
`;
