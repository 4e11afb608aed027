/**
 * The operator page's script, served as a file (the page's CSP allows only same-origin scripts).
 * It builds every cell with textContent — no HTML is ever parsed from data. Row actions call
 * POST /v1/render and POST /v1/probe with the domain's recorded interval; the page has no input
 * that could set, let alone lower, an interval.
 */
export const OPERATOR_PAGE_SCRIPT = `'use strict';
(function () {
  var TOKEN_KEY = 'downloader-operator-token';
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
    throughput_probe: 'grown: trying one page more',
    throughput_flat: 'shrunk: one more page did not help'
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

  var byId = function (id) { return document.getElementById(id); };
  var token = null;
  var afterDomain = null;
  var timer = null;
  var pendingAction = null;

  function readToken() {
    var match = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
    if (match) {
      sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
      // The fragment never reaches the server; drop it from the address bar and history too.
      history.replaceState(null, '', window.location.pathname + window.location.search);
    }
    return sessionStorage.getItem(TOKEN_KEY);
  }

  function setStatus(text, isError) {
    var status = byId('status');
    status.textContent = text;
    status.className = isError ? 'error' : '';
  }

  function call(method, path, body) {
    var init = { method: method, headers: { Authorization: 'Bearer ' + token, Accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (response) {
      return response.text().then(function (text) {
        var parsed = null;
        try { parsed = text ? JSON.parse(text) : null; } catch (error) { parsed = null; }
        return { status: response.status, body: parsed, retryAfter: response.headers.get('Retry-After') };
      });
    });
  }

  function cell(row, text, className) {
    var td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  function number(value) { return Number(value).toLocaleString('en-US'); }

  function showToken(isVisible) {
    byId('token-form').hidden = !isVisible;
    byId('view').hidden = isVisible;
  }

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

  function percent(ratio) { return ratio === null ? '–' : Math.round(ratio * 100) + ' %'; }
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
    byId('pool-machine-busy').textContent = percent(pool.machine_busy_ratio);
    byId('pool-measures').textContent = 'downloader ' + percent(pool.downloader_busy_ratio) +
      ' of all cores, waiting for a core ' + percent(pool.processor_wait_ratio) +
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
    var body = byId('domain-table').querySelector('tbody');
    body.textContent = '';
    view.domain_list.forEach(function (row) {
      var tr = document.createElement('tr');
      tr.setAttribute('data-domain', row.domain);
      cell(tr, row.domain);
      cell(tr, number(row.min_interval_ms), 'number');
      cell(tr, SOURCE_LABELS[row.interval_source] || row.interval_source);
      cell(tr, row.last_request_at || '—');
      cell(tr, number(row.in_flight_count), 'number');
      cell(tr, number(row.request_count), 'number');
      cell(tr, stateText(row), 'state-' + row.rate_limit_state);
      var actions = cell(tr, '', 'actions');
      actions.appendChild(actionButton('Render', 'render', row));
      actions.appendChild(actionButton('Probe', 'probe', row));
      body.appendChild(tr);
    });
    if (view.domain_list.length === 0) {
      var empty = document.createElement('tr');
      var td = cell(empty, 'No domain requested within the last 24 hours.');
      td.colSpan = 8;
      body.appendChild(empty);
    }
    byId('next-page-button').hidden = view.next_after_domain === null;
    byId('next-page-button').onclick = function () { afterDomain = view.next_after_domain; refresh(); };
    byId('first-page-button').hidden = afterDomain === null;
  }

  function renderEntries(view) {
    var body = byId('entry-table').querySelector('tbody');
    body.textContent = '';
    view.entry_list.forEach(function (row) {
      var tr = document.createElement('tr');
      tr.setAttribute('data-entry', row.entry_name);
      cell(tr, ENTRY_LABELS[row.entry_name] || row.entry_name);
      cell(tr, BEHAVIOR_LABELS[row.over_limit_behavior] || row.over_limit_behavior);
      cell(tr, number(row.over_limit_count), 'number');
      cell(tr, ENTRY_REASONS[row.entry_name] || '');
      body.appendChild(tr);
    });
  }

  function refresh() {
    var query = '?limit=100' + (afterDomain ? '&after_domain=' + encodeURIComponent(afterDomain) : '');
    return call('GET', '/v1/operator/domain-runtime' + query).then(function (answer) {
      if (answer.status === 401) {
        sessionStorage.removeItem(TOKEN_KEY);
        token = null;
        showToken(true);
        setStatus('The token was not accepted; enter it again.', true);
        return;
      }
      if (answer.status !== 200) {
        setStatus('Could not load the view: ' + answer.status + ' ' + ((answer.body && answer.body.message) || ''), true);
        return;
      }
      showToken(false);
      renderSummary(answer.body.summary);
      renderDomains(answer.body);
      renderEntries(answer.body);
      setStatus('Updated ' + answer.body.summary.generated_at + ' (window ' + answer.body.summary.window_seconds / 3600 + ' h).', false);
      return call('GET', '/v1/operator/page-pool').then(function (pool) {
        if (pool.status === 200) renderPagePool(pool.body);
      });
    }).catch(function (error) {
      setStatus('Could not reach the downloader: ' + error.message, true);
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
    call('POST', action.kind === 'render' ? '/v1/render' : '/v1/probe', body).then(function (answer) {
      result.textContent = describeAnswer(action.kind, answer);
      result.className = answer.status === 200 ? '' : 'error';
      return refresh();
    }).catch(function (error) {
      result.textContent = 'Could not reach the downloader: ' + error.message;
      result.className = 'error';
    });
  }

  function applyBrake(event) {
    event.preventDefault();
    var value = Number(byId('brake-input').value);
    call('PUT', '/v1/operator/concurrency-config', { max_concurrent_count: value }).then(function (answer) {
      if (answer.status !== 200) {
        setStatus('max_concurrent_count not changed: ' + ((answer.body && answer.body.message) || answer.status), true);
        return;
      }
      byId('brake-input').blur();
      return refresh();
    });
  }

  function schedule() {
    clearInterval(timer);
    if (byId('auto-refresh').checked) timer = setInterval(refresh, 5000);
  }

  byId('token-form').addEventListener('submit', function (event) {
    event.preventDefault();
    token = byId('token-input').value.trim();
    sessionStorage.setItem(TOKEN_KEY, token);
    byId('token-input').value = '';
    refresh();
  });
  byId('refresh-button').addEventListener('click', refresh);
  byId('forget-button').addEventListener('click', function () {
    sessionStorage.removeItem(TOKEN_KEY);
    token = null;
    showToken(true);
    setStatus('Token forgotten.', false);
  });
  byId('first-page-button').addEventListener('click', function () { afterDomain = null; refresh(); });
  byId('auto-refresh').addEventListener('change', schedule);
  byId('action-form').addEventListener('submit', sendAction);
  byId('action-cancel').addEventListener('click', function () {
    pendingAction = null;
    byId('action-panel').hidden = true;
  });
  byId('brake-form').addEventListener('submit', applyBrake);

  token = readToken();
  if (token) {
    refresh();
  } else {
    showToken(true);
    setStatus('Enter the downloader token to see the rate limit.', false);
  }
  schedule();
})();
`;
