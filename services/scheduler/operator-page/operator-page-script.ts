/**
 * The operator page's script (plain browser JavaScript, served as is). Every value from the API is
 * written with textContent, never as HTML. The token comes from the URL fragment (#token=…) or the
 * form, is kept in sessionStorage for this tab, and the fragment is removed from the address bar.
 */
export const OPERATOR_PAGE_SCRIPT = `'use strict';
(function () {
  var TOKEN_KEY = 'scheduler_operator_token';
  var REFRESH_MS = 5000;
  var timer = null;

  function byId(id) { return document.getElementById(id); }

  function setStatus(text, isError) {
    var status = byId('status');
    status.textContent = text;
    status.className = isError ? 'error' : '';
  }

  function readToken() {
    var match = /(?:^|[#&])token=([^&]+)/.exec(window.location.hash);
    if (match) {
      sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
      history.replaceState(null, '', window.location.pathname + window.location.search);
    }
    return sessionStorage.getItem(TOKEN_KEY);
  }

  function askForToken(message, isError) {
    byId('view').hidden = true;
    byId('token-form').hidden = false;
    setStatus(message, isError);
    byId('token-input').focus();
  }

  function cell(row, text, className) {
    var td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
  }

  function fillTable(id, rows, columns) {
    var body = byId(id).querySelector('tbody');
    body.replaceChildren();
    if (rows.length === 0) {
      var empty = document.createElement('tr');
      cell(empty, 'nothing to show', 'empty').colSpan = columns.length;
      body.appendChild(empty);
      return;
    }
    rows.forEach(function (item) {
      var tr = document.createElement('tr');
      columns.forEach(function (column) {
        var td = document.createElement('td');
        td.textContent = column.value(item);
        if (column.className) td.className = column.className(item);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }

  function number(value) { return Number(value).toLocaleString('en-US'); }

  function localTime(text) {
    if (!text) return '–';
    var date = new Date(text);
    return date.toLocaleString() + ' (' + Math.max(0, Math.round((date - Date.now()) / 1000)) + ' s)';
  }

  function render(summary) {
    byId('live-lease-count').textContent = number(summary.live_lease_count);
    byId('expired-lease-count').textContent = number(summary.expired_lease_count);
    var queued = summary.url_state_list.filter(function (item) { return item.url_state === 'queued'; })[0];
    byId('due-url-count').textContent = queued ? number(queued.url_count) : '0';
    byId('paused-domain-count').textContent = number(summary.domain_list.filter(function (row) {
      return row.domain_health_state !== 'healthy';
    }).length);
    fillTable('url-state-table', summary.url_state_list, [
      { value: function (item) { return item.url_state; } },
      { value: function (item) { return number(item.url_count); }, className: function () { return 'number'; } },
    ]);
    fillTable('report-status-table', summary.report_status_list, [
      { value: function (item) { return item.fetch_status; } },
      { value: function (item) { return number(item.result_count); }, className: function () { return 'number'; } },
    ]);
    fillTable('domain-table', summary.domain_list, [
      { value: function (row) { return row.domain; } },
      { value: function (row) { return row.verdict || 'no rule'; } },
      { value: function (row) { return number(row.due_count); }, className: function () { return 'number'; } },
      { value: function (row) { return number(row.in_flight_count); }, className: function () { return 'number'; } },
      { value: function (row) { return row.domain_health_state; }, className: function (row) { return 'state-' + row.domain_health_state; } },
      { value: function (row) { return localTime(row.paused_until_at); } },
    ]);
    setStatus('Updated ' + new Date(summary.generated_at).toLocaleString() + ' (server time ' + summary.generated_at + ')', false);
  }

  function refresh() {
    var token = sessionStorage.getItem(TOKEN_KEY);
    if (!token) { askForToken('Enter the scheduler token to see the frontier.'); return; }
    var limit = Math.min(1000, Math.max(1, Number(byId('limit-input').value) || 100));
    fetch('/v1/operator/frontier-summary?limit=' + limit, {
      headers: { Authorization: 'Bearer ' + token, Accept: 'application/json' },
      cache: 'no-store',
    }).then(function (response) {
      return response.json().then(function (body) { return { response: response, body: body }; });
    }).then(function (answer) {
      if (answer.response.status === 401 || answer.response.status === 403) {
        sessionStorage.removeItem(TOKEN_KEY);
        askForToken('The token was refused (' + answer.body.error_code + '). Enter the scheduler token.', true);
        return;
      }
      if (!answer.response.ok) {
        setStatus('The scheduler answered ' + answer.response.status + ': ' + answer.body.message, true);
        return;
      }
      byId('token-form').hidden = true;
      byId('view').hidden = false;
      render(answer.body);
    }).catch(function (error) {
      setStatus('Cannot reach the scheduler: ' + error.message + ' (retrying)', true);
    });
  }

  function schedule() {
    clearInterval(timer);
    if (byId('auto-refresh').checked) timer = setInterval(refresh, REFRESH_MS);
  }

  byId('token-form').addEventListener('submit', function (event) {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, byId('token-input').value.trim());
    byId('token-input').value = '';
    refresh();
  });
  byId('refresh-button').addEventListener('click', refresh);
  byId('auto-refresh').addEventListener('change', schedule);
  byId('limit-input').addEventListener('change', refresh);
  byId('forget-button').addEventListener('click', function () {
    sessionStorage.removeItem(TOKEN_KEY);
    askForToken('Token forgotten.');
  });

  if (readToken()) refresh(); else askForToken('Enter the scheduler token to see the frontier.');
  schedule();
})();
`;
