import type { Logger } from 'pino';
import type { components as DownloaderComponents } from '../../../generated/downloader';
import type { Clock } from '../frontier/clock';
import type { FrontierMutator } from '../frontier/frontier-mutator';
import type { FrontierStore } from '../frontier/frontier-store';
import type { RuleBook } from '../frontier/rule-book';
import type { DomainHealthMonitor, ProbeOutcome } from './domain-health-monitor';
import { isProbeAnswerHealthy, type HealthThresholds } from './health-window';

export type ProbeRequest = DownloaderComponents['schemas']['ProbeRequest'];
export type ProbeResponse = DownloaderComponents['schemas']['ProbeResponse'];

/** POST /v1/probe on the downloader (the only way the scheduler may touch a site). */
export type ProbeCall = (request: ProbeRequest, signal: AbortSignal) => Promise<ProbeResponse>;

export interface ProberOptions {
  probeTimeoutMs: number;
  /** Probes in flight at once. */
  concurrency: number;
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

  constructor(
    private readonly monitor: DomainHealthMonitor,
    private readonly rules: RuleBook,
    private readonly mutator: FrontierMutator,
    private readonly store: FrontierStore,
    private readonly clock: Clock,
    private readonly probe: ProbeCall | undefined,
    private readonly thresholds: HealthThresholds,
    private readonly options: ProberOptions,
    private readonly logger: Logger,
    private readonly onOutcome: (outcome: 'healthy' | 'unhealthy' | 'not_reached') => void,
  ) {}

  /** Aborts probes in flight (they count as not reached) and starts no more. */
  stop(): void {
    this.#stopping.abort();
  }

  /** Starts the probes that are due; resolves when they all finished. */
  async runDue(): Promise<void> {
    const room = this.options.concurrency - this.#inFlight;
    if (room <= 0 || this.#stopping.signal.aborted) return;
    const due = await this.mutator.run(() =>
      this.store.commitStaged((batch) =>
        this.monitor.beginDueProbes(batch, this.clock.nowMs(), room),
      ),
    );
    await Promise.all(
      due.map(async (row) => {
        this.#inFlight += 1;
        try {
          const outcome = await this.#probe(row.domain, row.probe_url ?? `https://${row.domain}/`);
          await this.mutator.run(() =>
            this.store.commitStaged((batch) =>
              this.monitor.finishProbe(batch, row.domain, outcome, this.clock.nowMs()),
            ),
          );
        } finally {
          this.#inFlight -= 1;
        }
      }),
    );
  }

  async #probe(domain: string, url: string): Promise<ProbeOutcome> {
    if (this.probe === undefined) {
      this.onOutcome('not_reached');
      return { hasReachedOrigin: false };
    }
    try {
      const rule = this.rules.get(domain);
      const answer = await this.probe(
        {
          url,
          timeout_ms: this.options.probeTimeoutMs,
          should_render: false,
          ...(rule === undefined ? {} : { min_interval_ms: rule.minIntervalMs }),
        },
        this.#stopping.signal,
      );
      if (!answer.has_reached_origin) {
        this.onOutcome('not_reached');
        return { hasReachedOrigin: false };
      }
      const isHealthy = isProbeAnswerHealthy(
        answer.http_status,
        answer.health_signal,
        this.thresholds,
      );
      this.onOutcome(isHealthy ? 'healthy' : 'unhealthy');
      this.logger.info(
        { domain, http_status: answer.http_status, is_healthy: isHealthy },
        'domain probed',
      );
      return { hasReachedOrigin: true, isHealthy };
    } catch (error) {
      this.onOutcome('not_reached');
      this.logger.warn(
        { domain, err: error },
        'probe failed on our side; not counted, retried soon',
      );
      return { hasReachedOrigin: false };
    }
  }
}
