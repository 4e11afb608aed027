import type { Logger } from 'pino';
import type { components, SamplerClient } from '../../../generated/sampler';
import { ContractHttpError } from '../../common/contract-runtime/client-errors';
import type { DownloaderMetrics } from '../downloader-metrics';

export type ApiEndpointHint = components['schemas']['ApiEndpointHint'];

export interface HintReporterSettings {
  /** Hints wait this long for company before a batch goes out (fewer, larger calls). */
  readonly batchDelayMs: number;
  /** The contract's most per call. */
  readonly maxBatchSize: number;
  /** Hints waiting beyond this are dropped (a sampler that is down must not grow memory). */
  readonly maxQueuedCount: number;
  /** After a sampler without the route (v1: 404 route_not_found), nothing is sent this long. */
  readonly unsupportedPauseMs: number;
  /** Endpoint URLs remembered as sent; past this the memory starts over (a repeat is a duplicate). */
  readonly maxRememberedCount: number;
}

export const DEFAULT_HINT_REPORTER_SETTINGS: HintReporterSettings = {
  batchDelayMs: 1000,
  maxBatchSize: 100,
  maxQueuedCount: 1000,
  unsupportedPauseMs: 10 * 60_000,
  maxRememberedCount: 100_000,
};

/**
 * Sends API endpoint hints to the sampler (POST /v1/api-endpoint-hints), fire-and-forget: `offer`
 * never waits, never throws, so a render or a report is never held by it. Each endpoint URL is
 * offered once per process; hints go in batches; a failed call is retried by the client (bounded,
 * the contract's 3 tries) and then dropped — a hint is evidence the next render finds again.
 * A sampler of the v1 contract answers 404 route_not_found: logged once, then no hint is sent
 * for `unsupportedPauseMs`.
 */
export class ApiEndpointHintReporter {
  private readonly remembered = new Set<string>();
  private readonly queue: ApiEndpointHint[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | undefined;
  private pausedUntilMs = 0;
  private hasLoggedUnsupported = false;
  private readonly stopping = new AbortController();

  constructor(
    private readonly client: SamplerClient,
    private readonly metrics: DownloaderMetrics,
    private readonly logger: Logger,
    private readonly settings: HintReporterSettings = DEFAULT_HINT_REPORTER_SETTINGS,
  ) {}

  offer(hint: ApiEndpointHint): void {
    if (this.stopping.signal.aborted || this.remembered.has(hint.endpoint_url)) return;
    if (this.remembered.size >= this.settings.maxRememberedCount) this.remembered.clear();
    this.remembered.add(hint.endpoint_url);
    this.metrics.apiEndpointHintCount.inc({ result: 'found' });
    if (Date.now() < this.pausedUntilMs || this.queue.length >= this.settings.maxQueuedCount) {
      this.metrics.apiEndpointHintCount.inc({ result: 'dropped' });
      return;
    }
    this.queue.push(hint);
    this.schedule();
  }

  /** Drops what waits and abandons a call in flight (shutdown: hints are found again). */
  async stop(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    this.queue.length = 0;
    await this.sending;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.sending !== undefined) return;
    const delayMs =
      this.queue.length >= this.settings.maxBatchSize ? 0 : this.settings.batchDelayMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sending = this.sendBatch().finally(() => {
        this.sending = undefined;
        if (this.queue.length > 0 && !this.stopping.signal.aborted) this.schedule();
      });
    }, delayMs);
    this.timer.unref();
  }

  private async sendBatch(): Promise<void> {
    const batch = this.queue.splice(0, this.settings.maxBatchSize);
    if (batch.length === 0) return;
    try {
      const answer = await this.client.submitApiEndpointHints(
        { hint_list: batch },
        { signal: this.stopping.signal },
      );
      this.metrics.apiEndpointHintCount.inc({ result: 'accepted' }, answer.accepted_count);
      this.metrics.apiEndpointHintCount.inc({ result: 'duplicate' }, answer.duplicate_count);
      this.logger.debug(
        { sent_hint_count: batch.length, accepted_count: answer.accepted_count },
        'API endpoint hints sent',
      );
    } catch (error) {
      this.metrics.apiEndpointHintCount.inc({ result: 'dropped' }, batch.length);
      if (this.stopping.signal.aborted) return;
      if (isRouteMissing(error)) {
        this.pausedUntilMs = Date.now() + this.settings.unsupportedPauseMs;
        this.metrics.apiEndpointHintCount.inc({ result: 'dropped' }, this.queue.length);
        this.queue.length = 0;
        if (!this.hasLoggedUnsupported) {
          this.hasLoggedUnsupported = true;
          this.logger.warn(
            { pause_seconds: this.settings.unsupportedPauseMs / 1000 },
            'the sampler has no POST /v1/api-endpoint-hints (a v1 sampler?); hints paused',
          );
        }
        return;
      }
      this.logger.warn(
        { err: error, dropped_hint_count: batch.length },
        'API endpoint hints not sent; dropped',
      );
    }
  }
}

function isRouteMissing(error: unknown): boolean {
  return (
    error instanceof ContractHttpError &&
    error.status === 404 &&
    error.errorCode === 'route_not_found'
  );
}
