import { OPERATOR_PAGE_TOOLKIT_SCRIPT } from '../../common/operator-page/operator-page-toolkit';

/**
 * The scheduler operator page's own script, after the shared toolkit (token, refresh, tables). It
 * reads GET /v1/operator/frontier-summary; every cell is text, never HTML.
 */
const SCHEDULER_PAGE_SCRIPT = `
(function () {
  // Counted from the server's clock (generated_at), not the browser's: the two may differ.
  function nextProbe(text, generatedAt) {
    if (!text) return '–';
    var seconds = Math.max(0, Math.round((Date.parse(text) - Date.parse(generatedAt)) / 1000));
    return new Date(text).toLocaleString() + ' (in ' + seconds + ' s)';
  }

  function render(page, summary) {
    page.byId('live-lease-count').textContent = page.number(summary.live_lease_count);
    page.byId('expired-lease-count').textContent = page.number(summary.expired_lease_count);
    var queued = summary.url_state_list.filter(function (item) { return item.url_state === 'queued'; })[0];
    page.byId('due-url-count').textContent = queued ? page.number(queued.url_count) : '0';
    page.byId('paused-domain-count').textContent = page.number(summary.domain_list.filter(function (row) {
      return row.domain_health_state !== 'healthy';
    }).length);
    page.fillTable('url-state-table', summary.url_state_list, [
      { value: function (item) { return item.url_state; } },
      { value: function (item) { return page.number(item.url_count); }, className: 'number' },
    ]);
    page.fillTable('report-status-table', summary.report_status_list, [
      { value: function (item) { return item.fetch_status; } },
      { value: function (item) { return page.number(item.result_count); }, className: 'number' },
    ]);
    page.fillTable('domain-table', summary.domain_list, [
      { value: function (row) { return row.domain; } },
      { value: function (row) { return row.verdict || 'no rule'; } },
      { value: function (row) { return page.number(row.due_count); }, className: 'number' },
      { value: function (row) { return page.number(row.in_flight_count); }, className: 'number' },
      { value: function (row) { return row.domain_health_state; }, className: function (row) { return 'state-' + row.domain_health_state; } },
      { value: function (row) { return nextProbe(row.paused_until_at, summary.generated_at); } },
    ], {
      rowAttributes: function (row) { return { 'data-domain': row.domain }; },
      emptyText: 'no domain with queued, leased, paused or probing URLs',
    });
    page.setStatus('Updated ' + new Date(summary.generated_at).toLocaleString() + ' (server time ' + summary.generated_at + ')', false);
  }

  var page = OperatorPage.start({
    tokenKey: 'scheduler-operator-token',
    askText: 'Enter the scheduler token to see the frontier.',
    refresh: function (page) {
      var limit = Math.min(1000, Math.max(1, Number(page.byId('limit-input').value) || 100));
      return page.getJson('/v1/operator/frontier-summary?limit=' + limit).then(function (summary) {
        render(page, summary);
      });
    },
  });
  page.byId('limit-input').addEventListener('change', page.refresh);
})();
`;

export const OPERATOR_PAGE_SCRIPT = OPERATOR_PAGE_TOOLKIT_SCRIPT + SCHEDULER_PAGE_SCRIPT;
