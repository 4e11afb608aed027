import type {
  DomainSampleOutcome,
  DomainSampleRequest,
  DomainSampler,
  SampledPage,
  UndeterminedReason,
} from './domain-sampler';
import {
  DomainRequests,
  SYSTEM_CLOCK,
  type PageResponse,
  type SamplingClock,
} from './downloader-requests';
import { isUnreachableFailure, judgeDomain, type PageRecord } from './domain-verdict';
import { minimumIntervalMs } from './minimum-interval';
import { analysePage, primaryLanguage, type PageAnalysis } from './page-analysis';
import type { PageFetcher, WebPageObject } from './page-fetcher';
import { judgePage, plainChallengeOf, type PageJudgement } from './page-judgement';
import { RobotsFile } from './robots-file';
import { SampleUrlQueue, spreadPick } from './sample-url-queue';
import {
  DEFAULT_SAMPLING_POLICY,
  languagePolicyOf,
  thresholdsFor,
  validateSamplingPolicy,
  type SamplingPolicy,
} from './sampling-policy';
import { readSitemap } from './sitemap-urls';
import {
  delayedContentSelector,
  deriveWaitSelector,
  matchesEveryRenderedPage,
  type WaitSelectorPage,
} from './wait-selector';

export interface SamplingProcedureDependencies {
  /** POST /v1/render of the downloader, behind the sampling's port (downloader-edge/ in service). */
  readonly downloader: PageFetcher;
  readonly policy?: SamplingPolicy;
  readonly clock?: SamplingClock;
}

/**
 * The sampling procedure (DomainSampler): for one domain, robots.txt, then (when the scheduler's
 * URLs are not enough) sitemap.xml, then a few pages each fetched plain and rendered — all through
 * the downloader's POST /v1/render, never directly — and a verdict from comparing them.
 * See the README's "How the sampler judges" for the signals and the thresholds.
 */
export class SamplingProcedure implements DomainSampler {
  private readonly policy: SamplingPolicy;
  private readonly clock: SamplingClock;

  constructor(private readonly dependencies: SamplingProcedureDependencies) {
    this.policy = dependencies.policy ?? DEFAULT_SAMPLING_POLICY;
    validateSamplingPolicy(this.policy);
    this.clock = dependencies.clock ?? SYSTEM_CLOCK;
  }

  sample(request: DomainSampleRequest): Promise<DomainSampleOutcome> {
    return new DomainSampling(this.dependencies.downloader, this.policy, this.clock, request).run();
  }
}

/** Extra time a render that waits for a selector gets for loading the page itself. */
const PAGE_LOAD_ALLOWANCE_MS = 5000;
/** Unreachable answers in a row after which the origin is left alone. */
const UNREACHABLE_STREAK_LIMIT = 2;

type RobotsStep =
  | { readonly kind: 'read'; readonly robots: RobotsFile }
  | { readonly kind: 'stop'; readonly reason: UndeterminedReason; readonly evidence: string };

/** One domain's sampling run and its state. */
class DomainSampling {
  private readonly requests: DomainRequests;
  private readonly records: PageRecord[] = [];
  private readonly evidence: string[] = [];
  /** Pages judged csr or partial, for the wait_selector. */
  private readonly renderNeedingPages: WaitSelectorPage[] = [];
  private readonly sampledPages: SampledPage[] = [];
  private robots: RobotsFile | null = null;
  /** undefined until a page told; null when pages declare none. */
  private language: string | null | undefined = undefined;
  /** The wait_selector derived so far; later renders wait for it (verifying it as they go). */
  private candidateSelector: string | null = null;
  /** A delayed-content wait timed out once: the site does not fill pages late. */
  private hasDelayedContentGivenUp = false;
  private unreachableStreak = 0;

  constructor(
    downloader: PageFetcher,
    private readonly policy: SamplingPolicy,
    clock: SamplingClock,
    private readonly request: DomainSampleRequest,
  ) {
    this.requests = new DomainRequests(
      { downloader, clock },
      {
        initialIntervalMs: minimumIntervalMs(
          { crawlDelaySeconds: null, language: undefined },
          policy,
        ),
        maxRateLimitWaitMs: policy.maxRateLimitWaitMs,
        signal: request.signal,
      },
    );
  }

  async run(): Promise<DomainSampleOutcome> {
    const domain = this.request.domain;
    const origin = originOf(domain, this.request.seenUrlList);
    const robotsStep = await this.readRobots(origin);
    if (robotsStep.kind === 'stop') {
      return this.outcome({
        verdict: 'unknown',
        undeterminedReason: robotsStep.reason,
        confidenceScore: 0.8,
        evidenceList: [robotsStep.evidence],
      });
    }
    this.robots = robotsStep.robots;
    this.updateInterval();

    const queue = new SampleUrlQueue(domain, robotsStep.robots);
    const homeUrl = `${origin}/`;
    const seen = this.request.seenUrlList.filter((url) => url !== homeUrl);
    queue.addSource(seen);
    queue.addSource([homeUrl]);
    if (queue.remainingCount < this.policy.maxSamplePageCount) {
      queue.addSource(
        spreadPick(await this.readSitemap(origin), 2 * this.policy.maxSamplePageCount),
      );
    }

    let attemptCount = 0;
    while (
      this.judgedCount() < this.policy.maxSamplePageCount &&
      attemptCount < this.policy.maxPageAttemptCount &&
      !this.isSettled()
    ) {
      const url = queue.next();
      if (url === undefined) break;
      attemptCount += 1;
      const record = await this.samplePage(url, queue);
      this.records.push(record);
      this.sampledPages.push(summaryOf(record));
    }

    if (this.records.length === 0) {
      const reason = queue.robotsRefusedCount > 0 ? 'robots_disallowed' : 'sample_insufficient';
      return this.outcome({
        verdict: 'unknown',
        undeterminedReason: reason,
        confidenceScore: 0.8,
        evidenceList: [
          queue.robotsRefusedCount > 0
            ? `robots.txt disallows all ${queue.robotsRefusedCount} candidate page(s)`
            : 'no page to sample',
        ],
      });
    }
    return this.conclude();
  }

  // ---- robots.txt and sitemap.xml ----

  private async readRobots(origin: string): Promise<RobotsStep> {
    const url = `${origin}/robots.txt`;
    const response = await this.requests.fetch({
      url,
      shouldRender: false,
      timeoutMs: this.policy.plainTimeoutMs,
    });
    switch (response.kind) {
      case 'page':
        return { kind: 'read', robots: new RobotsFile(origin, response.page.response_body ?? '') };
      case 'refused':
        return {
          kind: 'stop',
          reason: 'origin_unreachable',
          evidence: `the downloader refused ${url}: ${response.message}`,
        };
      case 'rate_limited':
        return {
          kind: 'stop',
          reason: 'sample_insufficient',
          evidence: 'the downloader kept the domain rate-limited beyond the wait budget',
        };
      case 'failed':
        if (response.failReason === 'http_client_error') {
          this.evidence.push('robots.txt: none (4xx), everything allowed');
          return { kind: 'read', robots: new RobotsFile(origin, null) };
        }
        if (response.failReason === 'dns_resolution_failed') {
          return {
            kind: 'stop',
            reason: 'domain_not_resolvable',
            evidence: `robots.txt: ${response.message}`,
          };
        }
        // Unreachable, a server error or 429: RFC 9309 reads that as "disallow all", so the
        // downloader would refuse every page; the origin is not usable now.
        return {
          kind: 'stop',
          reason: 'origin_unreachable',
          evidence: `robots.txt failed (${response.failReason}): ${response.message}`,
        };
    }
  }

  /** Page URLs from the sitemaps robots.txt names (same host), else /sitemap.xml; one index level. */
  private async readSitemap(origin: string): Promise<string[]> {
    const announced = (this.robots?.sitemapUrls ?? []).filter(
      (url) => hostOf(url) === this.request.domain,
    );
    let sitemapUrl: string | undefined = announced[0] ?? `${origin}/sitemap.xml`;
    for (let depth = 0; depth < 2 && sitemapUrl !== undefined; depth += 1) {
      if (this.robots !== null && !this.robots.isAllowed(sitemapUrl)) {
        // The downloader would refuse it too (only robots.txt itself is exempt).
        this.evidence.push(`sitemap ${new URL(sitemapUrl).pathname}: disallowed by robots.txt`);
        return [];
      }
      const response = await this.requests.fetch({
        url: sitemapUrl,
        shouldRender: false,
        timeoutMs: this.policy.plainTimeoutMs,
      });
      if (response.kind !== 'page') {
        this.evidence.push(`sitemap ${new URL(sitemapUrl).pathname}: ${describeFailure(response)}`);
        return [];
      }
      const content = readSitemap(
        response.page.response_body ?? '',
        this.policy.maxSitemapUrlCount,
      );
      if (content.pageUrls.length > 0 || content.sitemapUrls.length === 0) {
        this.evidence.push(
          `sitemap ${new URL(sitemapUrl).pathname}: ${content.pageUrls.length} URLs`,
        );
        return content.pageUrls;
      }
      sitemapUrl = content.sitemapUrls.find((url) => hostOf(url) === this.request.domain);
    }
    return [];
  }

  // ---- pages ----

  private async samplePage(url: string, queue: SampleUrlQueue): Promise<PageRecord> {
    const plainResponse = await this.requests.fetch({
      url,
      shouldRender: false,
      timeoutMs: this.policy.plainTimeoutMs,
    });
    if (plainResponse.kind === 'refused' || plainResponse.kind === 'rate_limited') {
      return { kind: 'not_fetched', url, why: describeFailure(plainResponse) };
    }
    if (plainResponse.kind === 'failed') {
      this.noteFailure(plainResponse.failReason);
      // No answer, or robots.txt refuses: rendering would fail the same way.
      if (
        isNetworkFailure(plainResponse.failReason) ||
        plainResponse.failReason === 'robots_disallowed'
      ) {
        return { kind: 'failed', url, failReason: plainResponse.failReason };
      }
    }
    let plain: PageAnalysis | null = null;
    if (plainResponse.kind === 'page') {
      if (!looksLikeHtml(plainResponse.page))
        return { kind: 'failed', url, failReason: 'not_html' };
      plain = analysePage(plainResponse.page.response_body ?? '');
      const challenge = plainChallengeOf(plain);
      if (challenge !== undefined)
        this.evidence.push(`plain ${pathOf(url)} looks like a challenge: ${challenge}`);
    }

    let rendered = await this.render(url);
    if (rendered.kind !== 'page') {
      if (rendered.kind === 'failed') {
        this.noteFailure(rendered.failReason);
        return { kind: 'failed', url, failReason: rendered.failReason };
      }
      return { kind: 'not_fetched', url, why: describeFailure(rendered) };
    }
    this.unreachableStreak = 0;
    queue.addLinks(rendered.page.link_list);
    let renderedPage = analysePage(rendered.page.rendered_html ?? '');
    this.learnLanguage(plain, renderedPage, rendered.page);
    const thresholds = thresholdsFor(this.policy, this.language ?? null);
    let judgement = judgePage(
      { plain, rendered: renderedPage, renderedFinalUrl: rendered.page.final_url },
      thresholds,
    );
    if (
      plainResponse.kind === 'failed' &&
      judgement.kind !== 'login' &&
      judgement.kind !== 'challenge'
    ) {
      // Nothing to compare the rendered page with: the plain answer was an error.
      return { kind: 'failed', url, failReason: plainResponse.failReason };
    }

    if (
      judgement.kind === 'thin' &&
      !this.hasDelayedContentGivenUp &&
      (plain ?? renderedPage).executableScriptCount > 0
    ) {
      const waited = await this.renderAfterDelay(url, renderedPage);
      if (waited !== null) {
        rendered = waited.response;
        renderedPage = waited.page;
        judgement = judgePage(
          { plain, rendered: renderedPage, renderedFinalUrl: waited.response.page.final_url },
          thresholds,
        );
        queue.addLinks(waited.response.page.link_list);
      }
    }
    if (judgement.kind === 'csr' || judgement.kind === 'partial') {
      this.renderNeedingPages.push({ plain, rendered: renderedPage });
      this.candidateSelector = deriveWaitSelector(this.renderNeedingPages)?.selector ?? null;
    }
    return { kind: 'judged', url, judgement };
  }

  /**
   * Renders `url`; once a wait_selector candidate exists, waits for it — as the crawl will — and
   * falls back to a render without it when it never appears (the candidate then fails on this
   * page and the final derivation drops it).
   */
  private async render(url: string): Promise<PageResponse> {
    const selector = this.candidateSelector;
    if (selector !== null) {
      const waited = await this.requests.fetch({
        url,
        shouldRender: true,
        waitSelector: selector,
        timeoutMs: this.selectorRenderTimeoutMs(),
      });
      if (!(waited.kind === 'failed' && waited.failReason === 'wait_selector_timeout'))
        return waited;
      this.evidence.push(`wait_selector candidate ${selector} did not appear on ${pathOf(url)}`);
    }
    return this.requests.fetch({ url, shouldRender: true, timeoutMs: this.policy.renderTimeoutMs });
  }

  /** A second render waiting for content elements to appear; null when none came. */
  private async renderAfterDelay(
    url: string,
    firstRender: PageAnalysis,
  ): Promise<{ response: Extract<PageResponse, { kind: 'page' }>; page: PageAnalysis } | null> {
    const selector = delayedContentSelector(firstRender);
    if (selector === null || this.policy.delayedContentWaitMs === 0) return null;
    const response = await this.requests.fetch({
      url,
      shouldRender: true,
      waitSelector: selector,
      timeoutMs: this.selectorRenderTimeoutMs(),
    });
    if (response.kind !== 'page') {
      this.hasDelayedContentGivenUp = true;
      this.evidence.push(
        `no content appeared on ${pathOf(url)} within ${this.policy.delayedContentWaitMs} ms (${describeFailure(response)})`,
      );
      return null;
    }
    this.evidence.push(`content appeared late on ${pathOf(url)} (waited for ${selector})`);
    return { response, page: analysePage(response.page.rendered_html ?? '') };
  }

  private selectorRenderTimeoutMs(): number {
    return Math.min(
      this.policy.renderTimeoutMs,
      this.policy.delayedContentWaitMs + PAGE_LOAD_ALLOWANCE_MS,
    );
  }

  private noteFailure(failReason: string): void {
    this.unreachableStreak =
      isUnreachableFailure(failReason) || failReason === 'dns_resolution_failed'
        ? this.unreachableStreak + 1
        : 0;
  }

  private learnLanguage(
    plain: PageAnalysis | null,
    rendered: PageAnalysis,
    page: WebPageObject,
  ): void {
    if (this.language !== undefined) return;
    this.language = plain?.language ?? rendered.language ?? primaryLanguage(page.lang ?? undefined);
    this.updateInterval();
  }

  private updateInterval(): void {
    this.requests.intervalMs = minimumIntervalMs(
      { crawlDelaySeconds: this.robots?.crawlDelaySeconds ?? null, language: this.language },
      this.policy,
    );
  }

  private isLanguageCalibrated(): boolean {
    if (this.language === undefined) return true;
    return languagePolicyOf(this.policy, this.language)?.isCalibrated === true;
  }

  // ---- when to stop, and the verdict ----

  private judgements(): PageJudgement[] {
    return this.records.flatMap((record) => (record.kind === 'judged' ? [record.judgement] : []));
  }

  private judgedCount(): number {
    return this.judgements().length;
  }

  /** Enough is known: sampling more pages would not change the outcome. */
  private isSettled(): boolean {
    const judgements = this.judgements();
    const count = (kind: PageJudgement['kind']) =>
      judgements.filter((page) => page.kind === kind).length;
    if (count('challenge') > 0) return true;
    if (
      this.records.some(
        (record) =>
          record.kind === 'failed' &&
          (record.failReason === 'challenge_detected' ||
            record.failReason === 'dns_resolution_failed'),
      )
    )
      return true;
    if (this.records.some((record) => record.kind === 'not_fetched')) return true;
    if (this.unreachableStreak >= UNREACHABLE_STREAK_LIMIT) return true;
    if (count('login') >= 2) return true;
    const decisive = judgements.filter(
      (page) => page.kind === 'csr' || page.kind === 'partial' || page.kind === 'ssr',
    );
    if (decisive.length > 0 && !this.isLanguageCalibrated()) return true;
    if (decisive.length === 0 && count('thin') >= this.policy.agreeingPageCount) return true;
    return (
      decisive.length >= this.policy.agreeingPageCount &&
      count('inconsistent') === 0 &&
      decisive.every((page) => page.kind === decisive[0].kind)
    );
  }

  private conclude(): DomainSampleOutcome {
    const thresholds = thresholdsFor(this.policy, this.language ?? null);
    const judgement = judgeDomain(this.records, thresholds, this.policy.agreeingPageCount);
    const evidence = [...judgement.evidenceList];
    if (judgement.verdict !== 'unknown' && !this.isLanguageCalibrated()) {
      return this.outcome({
        verdict: 'unknown',
        undeterminedReason: 'language_not_calibrated',
        confidenceScore: judgement.confidenceScore,
        evidenceList: [
          `language "${this.language}" has no calibrated thresholds (pages looked ${judgement.verdict})`,
          ...evidence,
        ],
      });
    }
    let waitSelector: string | null = null;
    if (judgement.verdict === 'csr' || judgement.verdict === 'partial') {
      const choice = deriveWaitSelector(this.renderNeedingPages);
      if (choice !== null && matchesEveryRenderedPage(choice.selector, this.renderNeedingPages)) {
        waitSelector = choice.selector;
        evidence.push(
          `wait_selector ${choice.selector}: on all ${this.renderNeedingPages.length} rendered page(s), ${Math.round(choice.coverage * 100)} % of the render-only text, ${choice.isAbsentFromPlain ? 'absent from' : 'present in'} the plain HTML`,
        );
      } else {
        evidence.push('wait_selector: no short selector holds the content on every page');
      }
    }
    return this.outcome({ ...judgement, evidenceList: evidence, waitSelector });
  }

  private outcome(decision: {
    verdict: DomainSampleOutcome['verdict'];
    undeterminedReason: UndeterminedReason | null;
    confidenceScore: number;
    evidenceList: readonly string[];
    waitSelector?: string | null;
  }): DomainSampleOutcome {
    const pageEvidence = this.records.flatMap((record) =>
      record.kind === 'judged'
        ? record.judgement.evidenceList.map((line) => `${pathOf(record.url)}: ${line}`)
        : [`${pathOf(record.url)}: ${record.kind === 'failed' ? record.failReason : record.why}`],
    );
    const crawlDelay = this.robots?.crawlDelaySeconds ?? null;
    return {
      domain: this.request.domain,
      verdict: decision.verdict,
      undeterminedReason: decision.verdict === 'unknown' ? decision.undeterminedReason : null,
      waitSelector: decision.waitSelector ?? null,
      minIntervalMs: minimumIntervalMs(
        { crawlDelaySeconds: crawlDelay, language: this.language ?? null },
        this.policy,
      ),
      robotsTxt: this.robots?.text ?? null,
      language: this.language ?? null,
      confidenceScore: decision.confidenceScore,
      renderCount: this.requests.renderCount,
      plainFetchCount: this.requests.plainFetchCount,
      sampledUrlList: this.records.map((record) => record.url),
      evidenceList: [
        ...decision.evidenceList,
        ...(crawlDelay !== null ? [`robots.txt Crawl-delay ${crawlDelay} s`] : []),
        ...this.evidence,
        ...pageEvidence,
      ],
      rateLimitedCount: this.requests.rateLimitedCount,
      pageList: this.sampledPages,
    };
  }
}

// ---- helpers ----

/** The origin to sample: the one most of the scheduler's URLs of the domain use, else https. */
export function originOf(domain: string, seenUrlList: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const url of seenUrlList) {
    try {
      const parsed = new URL(url);
      if (
        parsed.hostname === domain &&
        (parsed.protocol === 'http:' || parsed.protocol === 'https:')
      ) {
        counts.set(parsed.origin, (counts.get(parsed.origin) ?? 0) + 1);
      }
    } catch {
      // not a URL: ignored
    }
  }
  let best: string | undefined;
  for (const [origin, count] of counts)
    if (best === undefined || count > (counts.get(best) ?? 0)) best = origin;
  return best ?? `https://${domain}`;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

function isNetworkFailure(failReason: string): boolean {
  return [
    'dns_resolution_failed',
    'connection_failed',
    'navigation_timeout',
    'tls_failed',
  ].includes(failReason);
}

function looksLikeHtml(page: WebPageObject): boolean {
  const type = (page.content_type ?? '').toLowerCase();
  if (type.includes('html')) return true;
  if (type !== '' && !type.startsWith('text/plain')) return false;
  return /<(html|body|div|p|h1)[\s>]/i.test((page.response_body ?? '').slice(0, 4096));
}

function describeFailure(response: Exclude<PageResponse, { kind: 'page' }>): string {
  switch (response.kind) {
    case 'failed':
      return response.failReason;
    case 'refused':
      return `refused (${response.errorCode})`;
    case 'rate_limited':
      return `rate-limited beyond the wait budget (retry after ${response.retryAfterSeconds} s)`;
  }
}

function summaryOf(record: PageRecord): SampledPage {
  if (record.kind !== 'judged') {
    return {
      url: record.url,
      result:
        record.kind === 'failed' ? `failed:${record.failReason}` : `not_fetched:${record.why}`,
      renderOnlyShare: null,
      serverShare: null,
      contentTokenCount: null,
    };
  }
  const measures = 'measures' in record.judgement ? record.judgement.measures : null;
  return {
    url: record.url,
    result: record.judgement.kind,
    renderOnlyShare: measures?.renderOnlyShare ?? null,
    serverShare: measures?.serverShare ?? null,
    contentTokenCount: measures?.renderedContentTokenCount ?? null,
  };
}
