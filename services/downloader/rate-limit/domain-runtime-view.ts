import type { components, ListDomainRuntimeInput } from '../../../generated/downloader';
import { formatContractTime } from '../rendering/contract-time';
import type { AdmissionController } from './admission-controller';
import { rateLimitStateOf, type DomainRateState } from './domain-rate-state';
import { ENTRY_NAMES, OVER_LIMIT_BEHAVIOR_OF } from './rate-limit-vocabulary';
import { WINDOW_MS } from './window-counter';

type DomainRuntimeView = components['schemas']['DomainRuntimeView'];
type DomainRuntimeRow = components['schemas']['DomainRuntimeRow'];

function rowOf(
  state: DomainRateState,
  controller: AdmissionController,
  nowMs: number,
): DomainRuntimeRow {
  const backoffUntilMs = state.politeness.backoffUntilMs;
  return {
    domain: state.domain,
    min_interval_ms: state.minIntervalMs,
    interval_source: state.intervalSource,
    last_request_at:
      state.lastRequestAtMs === null ? null : formatContractTime(new Date(state.lastRequestAtMs)),
    in_flight_count: state.inFlightCount,
    request_count: state.counter.totals(nowMs).requestCount,
    rate_limit_state: rateLimitStateOf(state, nowMs, controller.limits),
    consecutive_error_count: state.politeness.consecutiveErrorCount,
    backoff_until_at:
      backoffUntilMs !== null && backoffUntilMs > nowMs
        ? formatContractTime(new Date(Math.ceil(backoffUntilMs / 1000) * 1000))
        : null,
  };
}

/** GET /v1/operator/domain-runtime: totals, one page of domain rows in domain order, the entries. */
export function buildDomainRuntimeView(
  controller: AdmissionController,
  query: ListDomainRuntimeInput['query'],
  nowMs: number = Date.now(),
): DomainRuntimeView {
  const states = controller.domainStates();
  const following =
    query.after_domain === undefined
      ? states
      : states.filter((state) => state.domain > (query.after_domain as string));
  const page = following.slice(0, query.limit);
  const totals = controller.counter.totals(nowMs);
  const overLimitCount = ENTRY_NAMES.reduce(
    (sum, entryName) => sum + totals.overLimitCounts[entryName],
    0,
  );
  return {
    summary: {
      domain_count: states.filter((state) => state.counter.totals(nowMs).requestCount > 0).length,
      in_flight_count: controller.inFlightCount,
      max_concurrent_count: controller.maxConcurrentCount,
      request_count: totals.requestCount,
      over_limit_count: overLimitCount,
      over_limit_ratio: totals.requestCount === 0 ? 0 : overLimitCount / totals.requestCount,
      window_seconds: WINDOW_MS / 1000,
      generated_at: formatContractTime(new Date(nowMs)),
    },
    domain_list: page.map((state) => rowOf(state, controller, nowMs)),
    entry_list: ENTRY_NAMES.map((entryName) => ({
      entry_name: entryName,
      over_limit_behavior: OVER_LIMIT_BEHAVIOR_OF[entryName],
      over_limit_count: totals.overLimitCounts[entryName],
    })),
    next_after_domain:
      following.length > query.limit && page.length > 0 ? page[page.length - 1].domain : null,
  };
}
