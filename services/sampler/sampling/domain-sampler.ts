import type { components } from '../../../generated/sampler/types';

/*
 * The seam between the sampler's two halves:
 * - the sampling procedure (this folder): for one domain, fetch robots.txt, sitemap.xml and a few
 *   sample pages plain and rendered through the downloader's POST /v1/render, and judge;
 * - the sampling loop and the consumer boundary (the rest of services/sampler): which domain is
 *   sampled when, what is stored, what is posted to the scheduler, what is exported.
 * The loop knows nothing of how a verdict is reached; the procedure knows nothing of claims,
 * backoff or storage.
 */

export type Verdict = components['schemas']['Verdict'];
export type UndeterminedReason = components['schemas']['UndeterminedReason'];

export interface DomainSampleRequest {
  /** Lowercase host (CONTRACT.md §十), e.g. `127.0.1.7` or `shop.example.org`. */
  domain: string;
  /** URLs of the domain the scheduler has seen (DomainCandidate.sample_url_list); may be empty. */
  seenUrlList: readonly string[];
  /** Aborts the procedure between requests (shutdown, or the domain was claimed meanwhile). */
  signal?: AbortSignal;
}

export interface DomainSampleOutcome {
  domain: string;
  verdict: Verdict;
  /** Set exactly when `verdict` is `unknown`. */
  undeterminedReason: UndeterminedReason | null;
  /** CSS selector of the main content container; null when none was found or not needed. */
  waitSelector: string | null;
  /** max(robots Crawl-delay, the language's default): the one place that max is taken. */
  minIntervalMs: number;
  /** The robots.txt body as fetched; null when the site has none (4xx) or it could not be read. */
  robotsTxt: string | null;
  /** The pages' `lang` (primary subtag, lowercase), null when unknown. */
  language: string | null;
  /** 0–1: how sure the procedure is of `verdict`. */
  confidenceScore: number;
  /** POST /v1/render calls with should_render=true this procedure made. */
  renderCount: number;
  /** POST /v1/render calls with should_render=false (robots.txt, sitemap.xml, plain pages). */
  plainFetchCount: number;
  /** The pages judged. */
  sampledUrlList: string[];
  /** One short line per finding, for logs and the operator page (not parsed by programs). */
  evidenceList: string[];
  /** 429s the downloader answered (each waited out for its retry_after_seconds). */
  rateLimitedCount: number;
  /** Per sampled URL, what became of it (for logs, the operator page and the calibration). */
  pageList: SampledPage[];
}

/** One sampled URL: its judgement and, when both fetches worked, the measures behind it. */
export interface SampledPage {
  url: string;
  /** csr / partial / ssr / thin / inconsistent / login / challenge, or `failed:<fail_reason>`. */
  result: string;
  /** Share of the rendered main content absent from the plain page (0–1); null when not measured. */
  renderOnlyShare: number | null;
  /** Share of everything visible after rendering that the plain page already showed. */
  serverShare: number | null;
  /** Tokens of the rendered main content. */
  contentTokenCount: number | null;
}

/**
 * Samples one domain and judges it. Never throws for a site's behaviour. Throws the signal's
 * reason on abort, and `DownloaderUnavailableError` (page-fetcher.ts) when the downloader
 * itself cannot be used (unreachable, refusing our token, answering 5xx without a contract
 * answer): then nothing was learnt about the site and the domain should simply be tried again.
 */
export interface DomainSampler {
  sample(request: DomainSampleRequest): Promise<DomainSampleOutcome>;
}
