import type { Logger } from 'pino';
import { DestinationResolver } from '../egress/destination-resolver';
import { EgressError } from '../egress/egress-error';
import type { DownloaderMetrics } from '../downloader-metrics';
import type { RobotsGate } from '../politeness/robots-gate';
import type { RobotsAnswer } from '../politeness/robots-rules';
import type { AdmissionController, DomainSlot, HeldBack } from '../rate-limit/admission-controller';
import type { EntryName, IntervalSource } from '../rate-limit/rate-limit-vocabulary';
import { failedOutcome, outcomeOfEgressError } from '../rendering/outcome-builders';
import type { RenderEngine } from '../rendering/render-engine';
import { outcomeCountKey } from '../rendering/render-engine-observer';
import { invalidSelectorOutcome } from '../rendering/page-render';
import type {
  PageOutcome,
  RefusedOutcome,
  RenderOutcome,
  RenderRequest,
} from '../rendering/render-outcome';
import type { ApiEndpointHintReporter } from '../hints/api-endpoint-hint-reporter';
import type { FetchAuditLog } from './fetch-audit-log';
import { PageObjectStorageError } from './page-object-storage-error';
import { originVerdictOf, robotsAnswerOf } from './origin-verdict';
import {
  newObjectId,
  toWebPageObject,
  type WebPageObject,
  type WebPageObjectStore,
} from './web-page-object-store';

/**
 * How an entry waits for the domain. Entry A queues until a deadline (`wait`); B and C are answered
 * at once (`immediate`) — except for the page fetch right after a robots.txt fetch the request itself
 * caused, which waits out that spacing until `followUpUntilMs` (the caller could not have known).
 */
export type AdmissionMode =
  | { readonly kind: 'wait'; readonly untilMs: number; readonly isFollowUp?: boolean }
  | { readonly kind: 'immediate'; readonly followUpUntilMs: number };

export interface OriginFetchRequest {
  /** Normalized http(s) URL. */
  readonly url: string;
  /** Its rate-limit domain (CONTRACT.md §十). */
  readonly domain: string;
  readonly entryName: EntryName;
  readonly minIntervalMs: number;
  readonly intervalSource: IntervalSource;
  readonly shouldRender: boolean;
  readonly waitSelector: string | null;
  /** Bounds the fetch or render itself. */
  readonly timeoutMs: number;
  readonly etag?: string | null;
  readonly lastModifiedAt?: string | null;
  readonly shouldCheckRobots: boolean;
  /**
   * URLs robots.txt must allow as well as `url` (an api task: the page whose content the endpoint
   * carries — fetching its JSON is fetching the page by other means). Same origin as `url`.
   */
  readonly robotsAlsoCheckedUrls?: readonly string[];
  readonly shouldStore: boolean;
  /**
   * Turns a fetched page into the page that is stored and answered (an api task's JSON becomes
   * the page's object). Undefined: the answer is not usable — nothing is stored and the result's
   * `pageObject` is undefined, so the caller can fetch the page another way.
   */
  readonly interpretPage?: (outcome: PageOutcome) => PageOutcome | undefined;
  readonly admission: AdmissionMode;
  readonly signal?: AbortSignal;
}

export type OriginFetchResult =
  /** The request left for the origin, or failed on the way (DNS). */
  | {
      readonly kind: 'fetched';
      readonly outcome: RenderOutcome;
      /** Whether a request reached the origin's address (false for DNS failures). */
      readonly hasReachedOrigin: boolean;
      /** For a page outcome: the object (stored when asked to). */
      readonly pageObject: WebPageObject | undefined;
    }
  /** Over the limit (or shutting down): nothing was sent. */
  | { readonly kind: 'held_back'; readonly decision: HeldBack }
  | { readonly kind: 'robots_disallowed'; readonly message: string }
  /** The destination (or the URL) is not allowed: nothing was sent. */
  | { readonly kind: 'refused'; readonly outcome: RefusedOutcome };

export interface OriginGatewayOptions {
  readonly engine: RenderEngine;
  /** The same policy the engine enforces, to refuse before robots.txt or a slot is touched. */
  readonly resolver: DestinationResolver;
  readonly controller: AdmissionController;
  readonly robots: RobotsGate;
  readonly objects: WebPageObjectStore;
  readonly audit: FetchAuditLog;
  readonly metrics: DownloaderMetrics;
  readonly logger: Logger;
  /** Bound of a robots.txt fetch. */
  readonly robotsTimeoutMs: number;
  /** Where a rendered page's API endpoint evidence goes (v2 hints); none: not looked at. */
  readonly hints?: Pick<ApiEndpointHintReporter, 'offer'>;
}

/**
 * The one path every request the downloader initiates toward a target takes — page renders,
 * plain fetches, robots.txt, probes, for all three entries:
 *
 *   destination check → wait_selector check (in Chromium, cached) → robots.txt (cached; fetched through this same path) → per-domain slot and
 *   global permit → the engine (the slot dates the request from its dispatch) → politeness
 *   feedback → page object storage → audit record (in the background: fetch-audit-log.ts).
 *
 * Subresources a page loads belong to its one page load and take no slot of their own.
 */
export class OriginGateway {
  constructor(private readonly options: OriginGatewayOptions) {}

  async fetch(request: OriginFetchRequest): Promise<OriginFetchResult> {
    const refusal = await this.checkDestination(request.url);
    if (refusal !== undefined) return refusal;
    if (
      request.shouldRender &&
      request.waitSelector !== null &&
      !(await this.options.engine.isValidWaitSelector(request.waitSelector))
    ) {
      return { kind: 'refused', outcome: invalidSelectorOutcome(request.waitSelector) };
    }

    let admission = request.admission;
    if (request.shouldCheckRobots) {
      for (const checkedUrl of [request.url, ...(request.robotsAlsoCheckedUrls ?? [])]) {
        const check = await this.options.robots.check(checkedUrl, request.domain, (robotsTxtUrl) =>
          this.fetchRobotsTxt(robotsTxtUrl, request),
        );
        if (check.kind === 'held_back') return { kind: 'held_back', decision: check.decision };
        if (check.kind === 'disallowed') {
          return {
            kind: 'robots_disallowed',
            message: `${check.rules?.object.robots_txt_url ?? 'robots.txt'} (${
              check.rules?.object.robots_policy ?? 'unknown'
            }) disallows ${checkedUrl}`,
          };
        }
        if (check.didFetch && admission.kind === 'immediate') {
          admission = { kind: 'wait', untilMs: admission.followUpUntilMs, isFollowUp: true };
        }
      }
    }

    const decision = await this.admit(request, admission);
    if (!decision.isGranted) return { kind: 'held_back', decision };
    const ran = await this.run(decision.slot, request, request.url);
    if (ran === undefined) return { kind: 'held_back', decision: stoppingDecision() };
    const { hasReachedOrigin } = ran;
    let { outcome } = ran;
    if (outcome.kind === 'page') this.offerHint(request.domain, outcome);
    let pageObject: WebPageObject | undefined;
    if (outcome.kind === 'page') {
      const page = request.interpretPage === undefined ? outcome : request.interpretPage(outcome);
      if (page !== undefined) {
        outcome = page;
        pageObject = toWebPageObject(newObjectId(), page.page);
        if (request.shouldStore) await this.store(pageObject);
      }
    }
    this.options.audit.record({
      domain: request.domain,
      url: request.url,
      entryName: request.entryName,
      isRendered: request.shouldRender,
      dispatchedAtMs: ran.dispatchedAtMs,
      outcome,
      objectId: request.shouldStore && pageObject ? pageObject.object_id : null,
    });
    return { kind: 'fetched', outcome, hasReachedOrigin, pageObject };
  }

  private offerHint(domain: string, { page, apiEndpointCandidate }: PageOutcome): void {
    if (apiEndpointCandidate === undefined || this.options.hints === undefined) return;
    this.options.hints.offer({
      domain,
      page_url: page.url,
      endpoint_url: apiEndpointCandidate.endpointUrl,
      content_pointer: apiEndpointCandidate.contentPointer,
      matched_character_count: apiEndpointCandidate.matchedCharacterCount,
      text_character_count: apiEndpointCandidate.textCharacterCount,
      observed_at: page.fetched_at,
    });
  }

  /** A storage fault is ours, not the caller's (the fetch itself happened). */
  private async store(pageObject: WebPageObject): Promise<void> {
    try {
      await this.options.objects.put(pageObject);
    } catch (error) {
      this.options.logger.error({ err: error }, 'page object could not be stored');
      throw new PageObjectStorageError(pageObject.url, { cause: error });
    }
  }

  /** Refuses (or fails DNS) before anything else is touched; the engine checks again on connect. */
  private async checkDestination(url: string): Promise<OriginFetchResult | undefined> {
    try {
      await this.options.resolver.resolve(new URL(url).hostname);
      return undefined;
    } catch (error) {
      if (!(error instanceof EgressError)) throw error;
      const outcome = outcomeOfEgressError(error, new Date());
      return outcome.kind === 'refused'
        ? { kind: 'refused', outcome }
        : { kind: 'fetched', outcome, hasReachedOrigin: false, pageObject: undefined };
    }
  }

  private admit(request: OriginFetchRequest, admission: AdmissionMode) {
    return this.options.controller.admit({
      domain: request.domain,
      minIntervalMs: request.minIntervalMs,
      intervalSource: request.intervalSource,
      entryName: request.entryName,
      waitUntilMs: admission.kind === 'wait' ? admission.untilMs : undefined,
      isFollowUp: admission.kind === 'wait' && admission.isFollowUp === true,
      signal: request.signal,
    });
  }

  /** robots.txt on behalf of `request`: same domain, interval, entry and admission mode. */
  private async fetchRobotsTxt(
    robotsTxtUrl: string,
    request: OriginFetchRequest,
  ): Promise<RobotsAnswer | HeldBack> {
    const decision = await this.admit(request, request.admission);
    if (!decision.isGranted) return decision;
    const ran = await this.run(
      decision.slot,
      {
        ...request,
        shouldRender: false,
        waitSelector: null,
        timeoutMs: Math.min(request.timeoutMs, this.options.robotsTimeoutMs),
        etag: null,
        lastModifiedAt: null,
      },
      robotsTxtUrl,
    );
    if (ran === undefined) return stoppingDecision();
    this.options.audit.record({
      domain: request.domain,
      url: robotsTxtUrl,
      entryName: request.entryName,
      isRendered: false,
      dispatchedAtMs: ran.dispatchedAtMs,
      outcome: ran.outcome,
      objectId: null,
    });
    return robotsAnswerOf(ran.outcome);
  }

  /**
   * Runs one granted request on the engine and releases its slot with the origin's verdict.
   * Undefined when the engine is stopping (nothing was sent).
   */
  private async run(
    slot: DomainSlot,
    request: Pick<
      OriginFetchRequest,
      'entryName' | 'shouldRender' | 'waitSelector' | 'timeoutMs' | 'etag' | 'lastModifiedAt'
    >,
    url: string,
  ): Promise<
    { outcome: RenderOutcome; hasReachedOrigin: boolean; dispatchedAtMs: number } | undefined
  > {
    let dispatchedAtMs = Date.now();
    const engineRequest: RenderRequest = {
      url,
      shouldRender: request.shouldRender,
      waitSelector: request.waitSelector,
      timeoutMs: request.timeoutMs,
      etag: request.etag ?? null,
      lastModifiedAt: request.lastModifiedAt ?? null,
      onDispatch: () => {
        dispatchedAtMs = Date.now();
        slot.dispatched();
      },
      onOriginAnswered: () => slot.answered(),
    };
    let outcome: RenderOutcome;
    try {
      outcome = await this.options.engine.render(engineRequest);
    } catch (error) {
      slot.release({ kind: 'no_verdict' });
      if (!slot.hasDispatched) return undefined;
      outcome = failedOutcome('browser_crashed', `render aborted: ${String(error)}`, new Date());
    }
    slot.release(originVerdictOf(outcome));
    const { metrics } = this.options;
    metrics.fetchCount.inc({ entry_name: request.entryName, outcome: outcomeCountKey(outcome) });
    metrics.fetchDuration.observe(
      { entry_name: request.entryName, is_rendered: String(request.shouldRender) },
      (Date.now() - dispatchedAtMs) / 1000,
    );
    const hasReachedOrigin =
      slot.hasDispatched &&
      !(outcome.kind === 'failed' && outcome.failReason === 'dns_resolution_failed');
    return { outcome, hasReachedOrigin, dispatchedAtMs };
  }
}

function stoppingDecision(): HeldBack {
  return {
    isGranted: false,
    holdReason: 'stopping',
    retryAfterMs: undefined,
    lastFailReason: null,
  };
}
