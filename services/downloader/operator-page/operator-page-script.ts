import { OPERATOR_PAGE_TOOLKIT_SCRIPT } from '../../common/operator-page/operator-page-toolkit';

/**
 * The downloader operator page's own script, after the shared toolkit (token, refresh, tables).
 * Every cell is text — no HTML is ever parsed from data. Row actions call POST /v1/render and
 * POST /v1/probe with the domain's recorded interval; the page has no input that could set, let
 * alone lower, an interval.
 */
const DOWNLOADER_PAGE_SCRIPT = `
(function () {
  var SOURCE_LABELS = {
    lease_message: 'lease message',
    caller_value: "caller's value",
    global_default: 'global default'
  };
  var STATE_LABELS = {
    normal: 'normal',
    over_limit: 'over the limit',
    backing_off: 'backing off',
    paused: 'paused'
  };
  var POOL_REASON_LABELS = {
    initial_size: 'started',
    fixed_size: 'fixed by --page-pool-size',
    processor_headroom: 'grown: CPU had room',
    processor_saturated: 'shrunk: CPU saturated',
    memory_pressure: 'shrunk: memory short',
    event_loop_lagging: 'shrunk: event loop lagging',
    demand_low: 'shrunk: pages idle',
    brake_lowered: 'shrunk: brake lowered',
    throughput_probe: 'grown: trying more pages (kept so far: pages/s rose or held)',
    throughput_flat: 'shrunk: more pages did not pay'
  };
  var ENTRY_LABELS = {
    lease_loop: 'A · lease loop',
    render_endpoint: 'B · POST /v1/render',
    probe_endpoint: 'C · POST /v1/probe'
  };
  var BEHAVIOR_LABELS = {
    delay_execution: 'delay, then run',
    reject_with_retry_after: '429 + retry_after_seconds',
    answer_origin_not_reached: 'has_reached_origin = false'
  };
  var ENTRY_REASONS = {
    lease_loop: 'The task is already leased; dropping it would wait for the lease to expire. Waiting is cheaper.',
    render_endpoint: 'A synchronous interface: the caller can back off itself.',
    probe_endpoint: "Never 429. Being held back by our own limit is not the origin's fault."
  };

  var afterDomain = null;
  var pendingAction = null;
  var page = null; // the toolkit's page object, once started

  function byId(id) { return document.getElementById(id); }
  function number(value) { return Number(value).toLocaleString('en-US'); }
  function wholePercent(ratio) { return ratio === null ? '–' : Math.round(ratio * 100) + ' %'; }

  function renderSummary(summary) {
    byId('domain-count').textContent = number(summary.domain_count);
    byId('in-flight-count').textContent = number(summary.in_flight_count);
    byId('max-concurrent-count').textContent = number(summary.max_concurrent_count);
    byId('over-limit-count').textContent = number(summary.over_limit_count);
    byId('over-limit-ratio').textContent = number(summary.over_limit_count) + ' held back / ' +
      number(summary.request_count) + ' requests = ' + (summary.over_limit_ratio * 100).toFixed(2) + '%';
    var brake = byId('brake-input');
    if (document.activeElement !== brake) brake.value = String(summary.max_concurrent_count);
  }

  function gibibytes(bytes) { return bytes === null ? '–' : (bytes / 1073741824).toFixed(1) + ' GiB'; }

  function renderPagePool(pool) {
    byId('pool-page-count').textContent = number(pool.page_count);
    byId('pool-bounds').textContent = pool.is_self_sizing
      ? 'self-sizing, ' + pool.min_page_count + '–' + pool.max_page_count
      : 'fixed size';
    byId('pool-busy-count').textContent = number(pool.busy_page_count);
    byId('pool-waiting').textContent = number(pool.waiting_render_count) + ' renders waiting for a page';
    byId('pool-reason').textContent = POOL_REASON_LABELS[pool.pool_size_reason] || pool.pool_size_reason;
    byId('pool-change').textContent = pool.last_changed_at === null ? '–'
      : pool.previous_page_count + ' → ' + pool.page_count + ' at ' + pool.last_changed_at;
    byId('pool-machine-busy').textContent = wholePercent(pool.machine_busy_ratio);
    byId('pool-measures').textContent = 'downloader ' + wholePercent(pool.downloader_busy_ratio) +
      ' of all cores, waiting for a core ' + wholePercent(pool.processor_wait_ratio) +
      '; memory available ' + gibibytes(pool.memory_available_byte_count) +
      ', downloader ' + gibibytes(pool.downloader_memory_byte_count) +
      '; event loop ' + (pool.event_loop_delay_ms === null ? '–' : pool.event_loop_delay_ms + ' ms');
  }

  function stateText(row) {
    var text = STATE_LABELS[row.rate_limit_state] || row.rate_limit_state;
    if (row.backoff_until_at) text += ' until ' + row.backoff_until_at;
    var errors = row.consecutive_error_count;
    if (errors > 0) text += ' (' + errors + (errors === 1 ? ' error' : ' errors in a row') + ')';
    return text;
  }

  function actionButton(label, kind, row) {
    var button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.setAttribute('data-action', kind);
    button.addEventListener('click', function () { openAction(kind, row); });
    return button;
  }

  function renderDomains(view) {
    page.fillTable('domain-table', view.domain_list, [
      { value: function (row) { return row.domain; } },
      { value: function (row) { return number(row.min_interval_ms); }, className: 'number' },
      { value: function (row) { return SOURCE_LABELS[row.interval_source] || row.interval_source; } },
      { value: function (row) { return row.last_request_at || '—'; } },
      { value: function (row) { return number(row.in_flight_count); }, className: 'number' },
      { value: function (row) { return number(row.request_count); }, className: 'number' },
      { value: stateText, className: function (row) { return 'state-' + row.rate_limit_state; } },
      {
        className: 'actions',
        append: function (cell, row) {
          cell.appendChild(actionButton('Render', 'render', row));
          cell.appendChild(actionButton('Probe', 'probe', row));
        },
      },
    ], {
      rowAttributes: function (row) { return { 'data-domain': row.domain }; },
      emptyText: 'No domain requested within the last 24 hours.',
    });
    byId('next-page-button').hidden = view.next_after_domain === null;
    byId('next-page-button').onclick = function () { afterDomain = view.next_after_domain; page.refresh(); };
    byId('first-page-button').hidden = afterDomain === null;
  }

  function renderEntries(view) {
    page.fillTable('entry-table', view.entry_list, [
      { value: function (row) { return ENTRY_LABELS[row.entry_name] || row.entry_name; } },
      { value: function (row) { return BEHAVIOR_LABELS[row.over_limit_behavior] || row.over_limit_behavior; } },
      { value: function (row) { return number(row.over_limit_count); }, className: 'number' },
      { value: function (row) { return ENTRY_REASONS[row.entry_name] || ''; } },
    ], { rowAttributes: function (row) { return { 'data-entry': row.entry_name }; } });
  }

  function load(current) {
    page = current;
    var query = '?limit=100' + (afterDomain ? '&after_domain=' + encodeURIComponent(afterDomain) : '');
    return page.getJson('/v1/operator/domain-runtime' + query).then(function (view) {
      renderSummary(view.summary);
      renderDomains(view);
      renderEntries(view);
      return page.send('GET', '/v1/operator/page-pool').then(function (pool) {
        if (pool.status === 200) renderPagePool(pool.body);
        // Only now: "Updated" means the whole view is drawn, the page pool included.
        page.setStatus('Updated ' + view.summary.generated_at + ' (window ' + view.summary.window_seconds / 3600 + ' h).', false);
      });
    });
  }

  function openAction(kind, row) {
    pendingAction = { kind: kind, domain: row.domain, minIntervalMs: row.min_interval_ms };
    byId('action-panel').hidden = false;
    byId('action-title').textContent = (kind === 'render' ? 'Render' : 'Probe') + ' ' + row.domain;
    byId('action-url').value = 'https://' + row.domain + '/';
    byId('action-interval').textContent = 'min_interval_ms ' + number(row.min_interval_ms) +
      ' (the recorded interval; same rate-limit path as every request)';
    byId('action-result').textContent = '';
    byId('action-result').className = '';
    byId('action-url').focus();
  }

  function describeAnswer(kind, answer) {
    var body = answer.body || {};
    if (answer.status === 429) {
      return 'Held back by the rate limit: retry after ' + (body.retry_after_seconds || answer.retryAfter) + ' s.';
    }
    if (answer.status !== 200) {
      return answer.status + ' ' + (body.error_code || '') + (body.fail_reason ? ' (' + body.fail_reason + ')' : '') +
        ': ' + (body.message || '');
    }
    if (kind === 'probe') {
      return body.has_reached_origin
        ? 'Reached the origin: http_status ' + body.http_status + ' in ' + body.elapsed_ms + ' ms.'
        : 'Did not reach the origin (held back by our own limit, or no answer): not counted against the domain.';
    }
    var health = body.health_signal;
    return 'Rendered: http_status ' + body.http_status + ', ' + body.fetch_status + ', "' + (body.title || '') +
      '", ' + body.link_list.length + ' links, ' + health.xhr_total_count + ' XHRs (' + health.xhr_error_count +
      ' ≥ 500, ' + health.xhr_throttled_count + ' 429, ' + health.xhr_denied_count + ' 401/403).';
  }

  function sendAction(event) {
    event.preventDefault();
    if (!pendingAction) return;
    var action = pendingAction;
    var url = byId('action-url').value;
    var body = action.kind === 'render'
      ? { url: url, min_interval_ms: action.minIntervalMs, should_store: false }
      : { url: url, min_interval_ms: action.minIntervalMs };
    var result = byId('action-result');
    result.textContent = 'Sending…';
    result.className = '';
    page.send('POST', action.kind === 'render' ? '/v1/render' : '/v1/probe', body).then(function (answer) {
      result.textContent = describeAnswer(action.kind, answer);
      result.className = answer.status === 200 ? '' : 'error';
      return page.refresh();
    }).catch(function (error) {
      result.textContent = 'Could not reach the downloader: ' + error.message;
      result.className = 'error';
    });
  }

  function applyBrake(event) {
    event.preventDefault();
    var value = Number(byId('brake-input').value);
    page.send('PUT', '/v1/operator/concurrency-config', { max_concurrent_count: value }).then(function (answer) {
      if (answer.status !== 200) {
        page.setStatus('max_concurrent_count not changed: ' + ((answer.body && answer.body.message) || answer.status), true);
        return;
      }
      byId('brake-input').blur();
      return page.refresh();
    });
  }

  page = OperatorPage.start({
    tokenKey: 'downloader-operator-token',
    askText: 'Enter the downloader token to see the rate limit.',
    refresh: load,
  });
  byId('first-page-button').addEventListener('click', function () { afterDomain = null; page.refresh(); });
  byId('action-form').addEventListener('submit', sendAction);
  byId('action-cancel').addEventListener('click', function () {
    pendingAction = null;
    byId('action-panel').hidden = true;
  });
  byId('brake-form').addEventListener('submit', applyBrake);
})();
`;

export const OPERATOR_PAGE_SCRIPT = OPERATOR_PAGE_TOOLKIT_SCRIPT + DOWNLOADER_PAGE_SCRIPT;
