import type { components, ProbeUrlInput } from '../../../generated/downloader';
import type { OriginFetchResult, OriginGateway } from '../fetching/origin-gateway';
import { formatContractTime } from '../rendering/contract-time';
import { intervalOf, refusalError, requestTargetOf } from './request-target';

/** The request as the router hands it over: validated, the contract's defaults filled in. */
type ProbeRequestBody = ProbeUrlInput['body'];
type ProbeResponse = components['schemas']['ProbeResponse'];
type ProbeFindings = Pick<ProbeResponse, 'has_reached_origin' | 'http_status' | 'health_signal'>;

const NOT_REACHED: ProbeFindings = {
  has_reached_origin: false,
  http_status: null,
  health_signal: null,
};

function findingsOf(result: Exclude<OriginFetchResult, { kind: 'refused' }>): ProbeFindings {
  if (result.kind !== 'fetched') return NOT_REACHED;
  const { outcome } = result;
  switch (outcome.kind) {
    case 'page':
      return {
        has_reached_origin: true,
        http_status: outcome.page.http_status,
        health_signal: outcome.page.health_signal,
      };
    case 'not_modified':
      return { has_reached_origin: true, http_status: 304, health_signal: null };
    case 'failed':
      return {
        has_reached_origin: result.hasReachedOrigin,
        http_status: outcome.httpStatus ?? null,
        health_signal: null,
      };
    case 'refused':
      // Redirected to a destination we refuse: the origin answered, just not with a page.
      return { has_reached_origin: true, http_status: null, health_signal: null };
  }
}

/**
 * Entry C, POST /v1/probe: a health check for the scheduler's circuit breaker, under the same rate
 * limit. It never answers 429: held back by our own limit (or shutting down) it answers
 * `has_reached_origin = false`, which the scheduler neither counts nor backs off on. It never
 * stores. It does not consult robots.txt: a probe is one GET of a page the scheduler crawls under
 * the sampler's rule, and a fail-closed robots.txt of a failing site (5xx) would hide the very
 * recovery the probe looks for.
 */
export class ProbeEntry {
  constructor(
    private readonly gateway: OriginGateway,
    private readonly defaultMinIntervalMs: number,
  ) {}

  async probe(body: ProbeRequestBody): Promise<ProbeResponse> {
    const startedAtMs = Date.now();
    const target = requestTargetOf(body.url);
    const result = await this.gateway.fetch({
      ...target,
      ...intervalOf(body.min_interval_ms, this.defaultMinIntervalMs),
      entryName: 'probe_endpoint',
      shouldRender: body.should_render,
      waitSelector: null,
      timeoutMs: body.timeout_ms,
      shouldCheckRobots: false,
      shouldStore: false,
      admission: { kind: 'immediate', followUpUntilMs: startedAtMs },
    });
    if (result.kind === 'refused') throw refusalError(result.outcome);
    return {
      url: target.url,
      ...findingsOf(result),
      elapsed_ms: Date.now() - startedAtMs,
      probed_at: formatContractTime(new Date(startedAtMs)),
    };
  }
}
