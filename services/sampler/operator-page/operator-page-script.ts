import { OPERATOR_PAGE_TOOLKIT_SCRIPT } from '../../common/operator-page/operator-page-toolkit';

/**
 * The sampler operator page's own script, after the shared toolkit (token, refresh, tables). It
 * reads GET /v1/operator/domain-claims and GET /v1/operator/sampling-queue; every cell is text.
 */
const SAMPLER_PAGE_SCRIPT = `
(function () {
  var DECISION_LABELS = {
    rule_written: 'confirmed, rule written',
    returned_to_backoff: 'back to backoff re-sampling',
    rejected_low_confidence: 'rejected: confidence too low',
    rejected_not_claimed: 'rejected: not in the claim'
  };
  var STATE_LABELS = { active: 'active', expired: 'expired', released: 'released', revoked: 'revoked' };
  var SCHEDULER_ACTIONS = {
    csr: 'queues and renders normally',
    partial: 'queues at a lower priority',
    ssr: 'drops the domain (an external module owns it)',
    unknown: 'drops the domain; exported to consumers'
  };

  function duration(seconds) {
    if (seconds <= 0) return 'lapsed';
    var days = Math.floor(seconds / 86400);
    var hours = Math.floor((seconds % 86400) / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    if (days > 0) return days + ' d ' + hours + ' h';
    if (hours > 0) return hours + ' h ' + minutes + ' min';
    if (minutes > 0) return minutes + ' min';
    return seconds + ' s';
  }

  function timeToExpiry(claim, generatedAt) {
    if (claim.claim_state !== 'active') return '–';
    return duration(Math.round((Date.parse(claim.expires_at) - Date.parse(generatedAt)) / 1000));
  }

  function renderClaims(page, view) {
    page.byId('claimed-domain-count').textContent = page.number(view.summary.claimed_domain_count);
    page.byId('active-claim-count').textContent = page.number(view.summary.active_claim_count);
    page.byId('hint-count').textContent = page.number(view.summary.hint_count);
    page.byId('resolution-ratio').textContent = view.summary.hint_count === 0 ? 'no hints' : page.percent(view.summary.resolution_ratio);
    page.fillTable('claim-table', view.claim_list, [
      { value: function (row) { return row.claim_id; } },
      { value: function (row) { return row.consumer_id; } },
      { value: function (row) { return page.number(row.domain_count); }, className: 'number' },
      { value: function (row) { return page.number(row.claim_ttl_seconds); }, className: 'number' },
      { value: function (row) { return row.expires_at; } },
      { value: function (row) { return timeToExpiry(row, view.generated_at); } },
      { value: function (row) { return page.number(row.reported_count); }, className: 'number' },
      { value: function (row) { return STATE_LABELS[row.claim_state] || row.claim_state; }, className: function (row) { return 'state-' + row.claim_state; } },
    ], { rowAttributes: function (row) { return { 'data-claim-id': row.claim_id }; } });
    page.fillTable('hint-table', view.recent_hint_list, [
      { value: function (row) { return row.domain; } },
      { value: function (row) { return row.consumer_id; } },
      { value: function (row) { return row.verdict; } },
      { value: function (row) { return row.undetermined_reason || '—'; } },
      { value: function (row) { return Number(row.confidence_score).toFixed(2); }, className: 'number' },
      { value: function (row) { return DECISION_LABELS[row.hint_decision] || row.hint_decision; }, className: function (row) { return 'decision-' + row.hint_decision; } },
      { value: function (row) { return row.received_at; } },
    ]);
  }

  function renderQueue(page, queue) {
    page.byId('export-ratio').textContent = page.percent(queue.export_ratio);
    page.byId('due-count').textContent = page.number(queue.due_count);
    page.byId('in-progress-count').textContent = page.number(queue.in_progress_count);
    page.byId('waiting-count').textContent = page.number(queue.waiting_count);
    page.byId('exported-domain-count').textContent = page.number(queue.exported_domain_count);
    page.fillTable('verdict-table', queue.verdict_count_list, [
      { value: function (row) { return row.verdict; } },
      { value: function (row) { return page.number(row.domain_count); }, className: 'number' },
      { value: function (row) { return SCHEDULER_ACTIONS[row.verdict] || ''; } },
    ]);
    page.fillTable('task-table', queue.task_list, [
      { value: function (row) { return row.domain; } },
      { value: function (row) { return row.is_in_progress ? 'being sampled' : (Date.parse(row.due_at) <= Date.parse(queue.generated_at) ? 'due' : 'waiting'); }, className: function (row) { return row.is_in_progress ? 'in-progress' : ''; } },
      { value: function (row) { return row.due_at; } },
      { value: function (row) { return row.verdict || 'not decided yet'; } },
      { value: function (row) { return row.undetermined_reason || '—'; } },
      { value: function (row) { return page.number(row.attempt_count); }, className: 'number' },
    ], { rowAttributes: function (row) { return { 'data-domain': row.domain }; } });
  }

  OperatorPage.start({
    tokenKey: 'sampler-operator-token',
    askText: 'Enter the sampler token to see claims, hints and the sampling queue.',
    refresh: function (page) {
      var limit = Math.min(1000, Math.max(1, Number(page.byId('limit-input').value) || 100));
      return Promise.all([
        page.getJson('/v1/operator/domain-claims?limit=' + limit),
        page.getJson('/v1/operator/sampling-queue?limit=' + limit),
      ]).then(function (answers) {
        renderClaims(page, answers[0]);
        renderQueue(page, answers[1]);
        page.setStatus('Updated ' + new Date().toLocaleTimeString() + ' (server time ' + answers[0].generated_at + ')', false);
      });
    },
  });
})();
`;

export const OPERATOR_PAGE_SCRIPT = OPERATOR_PAGE_TOOLKIT_SCRIPT + SAMPLER_PAGE_SCRIPT;
