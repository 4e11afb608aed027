import type { Logger } from 'pino';
import type { components as DownloaderComponents } from '../../../generated/downloader';
import type { Clock } from '../frontier/clock';
import type { FrontierMutator } from '../frontier/frontier-mutator';
import type { RuleBook } from '../frontier/rule-book';
import type { DomainHealthMonitor, ProbeOutcome } from './domain-health-monitor';
import { isProbeAnswerHealthy, type HealthThresholds } from './health-window';

export type ProbeRequest = DownloaderComponents['schemas']['ProbeRequest'];
export type ProbeResponse = DownloaderComponents['schemas']['ProbeResponse'];

/** POST /v1/probe on the downloader (the only way the scheduler may touch a site). */
export type ProbeCall = (request: ProbeRequest, signal: AbortSignal) => Promise<ProbeResponse>;

export interface DomainProberDependencies {
  monitor: DomainHealthMonitor;
  rules: RuleBook;
  mutator: FrontierMutator;
  clock: Clock;
  /** Absent without a downloader token: every probe then counts as not reached. */
  probe: ProbeCall | undefined;
  thresholds: HealthThresholds;
  probeTimeoutMs: number;
  /** Probes in flight at once. */
  concurrency: number;
  logger: Logger;
  onOutcome: (outcome: 'healthy' | 'unhealthy' | 'not_reached') => void;
  /** A probe finished (a resumed domain may have work due). */
  onFinished: () => void;
}

/**
 * Probes paused domains when their time comes. The probe itself runs outside the mutation lock (it
 * takes as long as the origin does); marking the domain probing before and applying the outcome
 * after each take the lock briefly. A probe that fails on our side — the downloader unreachable or
 * refusing — is treated like `has_reached_origin = false`: tried again soon, never counted against
 * the domain, because it says nothing about the origin.
 */
export class DomainProber {
  #inFlight = 0;
  /** Aborted at shutdown, so a slow origin cannot hold the process past its stop budget. */
  readonly #stopping = new AbortController();

  constructor(private readonly dependencies: DomainProberDependencies) {}

  /** Aborts probes in flight (they count as not reached) and starts no more. */
  stop(): void {
    this.#stopping.abort();
  }

  /** Starts the probes that are due; resolves when they all finished. */
  async runDue(): Promise<void> {
    const { monitor, mutator, clock, onFinished } = this.dependencies;
    const room = this.dependencies.concurrency - this.#inFlight;
    if (room <= 0 || this.#stopping.signal.aborted) return;
    const due = await mutator.run((batch) => monitor.beginDueProbes(batch, clock.nowMs(), room));
    await Promise.all(
      due.map(async (row) => {
        this.#inFlight += 1;
        try {
          const outcome = await this.#probe(row.domain, row.probe_url ?? `https://${row.domain}/`);
          await mutator.run((batch) =>
            monitor.finishProbe(batch, row.domain, outcome, clock.nowMs()),
          );
          onFinished();
        } finally {
          this.#inFlight -= 1;
        }
      }),
    );
  }

  async #probe(domain: string, url: string): Promise<ProbeOutcome> {
    const { probe, rules, thresholds, logger, onOutcome } = this.dependencies;
    if (probe === undefined) {
      onOutcome('not_reached');
      return { hasReachedOrigin: false };
    }
    try {
      const rule = rules.get(domain);
      const answer = await probe(
        {
          url,
          timeout_ms: this.dependencies.probeTimeoutMs,
          should_render: false,
          ...(rule === undefined ? {} : { min_interval_ms: rule.minIntervalMs }),
        },
        this.#stopping.signal,
      );
      if (!answer.has_reached_origin) {
        onOutcome('not_reached');
        return { hasReachedOrigin: false };
      }
      const isHealthy = isProbeAnswerHealthy(answer.http_status, answer.health_signal, thresholds);
      onOutcome(isHealthy ? 'healthy' : 'unhealthy');
      logger.info(
        { domain, http_status: answer.http_status, is_healthy: isHealthy },
        'domain probed',
      );
      return { hasReachedOrigin: true, isHealthy };
    } catch (error) {
      onOutcome('not_reached');
      logger.warn({ domain, err: error }, 'probe failed on our side; not counted, retried soon');
      return { hasReachedOrigin: false };
    }
  }
}
