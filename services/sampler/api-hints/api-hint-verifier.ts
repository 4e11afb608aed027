import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import { endpointUrlFor, type ApiEndpoint } from '../../common/api-endpoint';
import { primaryKey, primaryKeyPrefix } from '../../common/storage/primary-key';
import { hashOfNormalizedUrl } from '../../common/url';
import { decisionOfRule, isRenderNeedingVerdict, type RuleBook } from '../rules/rule-book';
import { msOfTimeText, timeTextOf, type Clock } from '../sampler-clock';
import type { SamplerMetrics } from '../sampler-metrics';
import { DomainRequests, SYSTEM_CLOCK, type SamplingClock } from '../sampling/downloader-requests';
import type { PageFetcher } from '../sampling/page-fetcher';
import type { StateLock } from '../state-lock';
import type {
  ApiEndpointHintTaskDocument,
  ApiHintVerificationState,
  DomainRuleDocument,
} from '../storage/sampler-documents';
import type { SamplerTables } from '../storage/sampler-tables';
import { walkTable } from '../storage/table-walk';
import { inferApiEndpoint } from './endpoint-inference';
import { verifyEndpoint, type EndpointVerificationOutcome } from './endpoint-verification';

export interface ApiHintVerifierSettings {
  /** How often due domains are looked for. */
  checkIntervalMs: number;
  /** A failed check is repeated no sooner than this. */
  retryAfterFailureMs: number;
  /** A verified mapping is checked again after this (the re-verification period of verdicts). */
  recheckAfterVerifiedMs: number;
  /** Nothing learnt (no decided rule yet, rate-limited, downloader down): look again after this. */
  deferMs: number;
  /** Sample pages per check (the contract's "up to 3"). */
  samplePageCount: number;
  /** A domain's hints considered per check (the newest observed). */
  maxHintCount: number;
  plainTimeoutMs: number;
  renderTimeoutMs: number;
  maxRateLimitWaitMs: number;
}

export interface ApiHintVerifierDependencies {
  tables: SamplerTables;
  lock: StateLock;
  clock: Clock;
  logger: Logger;
  metrics: SamplerMetrics;
  rules: RuleBook;
  settings: ApiHintVerifierSettings;
  /** The downloader's POST /v1/render; absent (no downloader token): nothing is verified. */
  pageFetcher?: PageFetcher;
  /** Pacing and 429 waits of the downloader requests (real time). */
  requestClock?: SamplingClock;
  /** A domain the sampling procedure is fetching right now waits (one channel per domain). */
  isSampling: (domain: string) => boolean;
}

export type VerificationRoundOutcome =
  'verified' | 'covered_by_rule' | 'failed' | 'deferred' | 'not_eligible' | 'nothing_due';

/** A check's outcome as written on hints; without `state` they keep theirs. */
interface HintRecord {
  state?: ApiHintVerificationState;
  note: string;
  /** Stored as next_check_at. */
  nextCheckAtMs: number;
  /** When the loop looks at the domain again, if sooner than that (a rule decision also wakes it). */
  lookAgainAtMs?: number;
}

/**
 * Turns the downloader's API endpoint hints into `render_strategy = api` rules, one domain at a
 * time: only for a domain whose rule is decided csr or partial, it infers one mapping from the
 * domain's hints (endpoint-inference.ts), verifies it on up to three of the hinted pages through
 * the downloader (endpoint-verification.ts) and, when every page passes, writes the rule with the
 * mapping and a new verified_at through the rule book — the outbox carries it to the scheduler.
 * A failed check records why on the hints, is repeated no sooner than `retryAfterFailureMs`, and
 * sends an api rule back to render. A new hint the current api mapping already reproduces is
 * confirmed without a request. When hints are due is kept in memory (rebuilt from the table at
 * start), so a tick costs nothing while nothing is due.
 */
export class ApiHintVerifier {
  readonly #dueAtMs = new Map<string, number>();
  readonly #stopController = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #tickPromise: Promise<void> | undefined;

  private constructor(private readonly dependencies: ApiHintVerifierDependencies) {}

  static async open(dependencies: ApiHintVerifierDependencies): Promise<ApiHintVerifier> {
    const verifier = new ApiHintVerifier(dependencies);
    await walkTable(dependencies.tables.apiEndpointHints, ({ value }) =>
      verifier.#noteDue(value.domain, msOfTimeText(value.next_check_at)),
    );
    return verifier;
  }

  /** A new hint for the domain: it is checked at the next tick. */
  noteNewHint(domain: string): void {
    this.#noteDue(domain, this.dependencies.clock.nowMs());
  }

  /**
   * A rule was written: hints waiting for the domain to be decided are checked at the next tick
   * instead of after the deferral (a domain without hints costs nothing).
   */
  noteRuleRecorded(rule: DomainRuleDocument): void {
    if (this.#dueAtMs.has(rule.domain) && isRenderNeedingVerdict(rule.verdict)) {
      this.#dueAtMs.set(rule.domain, this.dependencies.clock.nowMs());
    }
  }

  start(): void {
    const { pageFetcher, logger, settings } = this.dependencies;
    if (pageFetcher === undefined) {
      logger.warn('no downloader token: API endpoint hints are stored but not verified');
      return;
    }
    this.#timer = setInterval(() => void this.tick(), settings.checkIntervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#stopController.abort();
    await this.#tickPromise;
  }

  /** Checks every domain that is due, one after the other (a call during a tick joins it). */
  tick(): Promise<void> {
    // `finally` runs asynchronously, so a tick that finds nothing due cannot leave a stale promise.
    this.#tickPromise ??= this.#checkDue().finally(() => {
      this.#tickPromise = undefined;
    });
    return this.#tickPromise;
  }

  async #checkDue(): Promise<void> {
    const { clock, logger, settings } = this.dependencies;
    const nowMs = clock.nowMs();
    const due = [...this.#dueAtMs].filter(([, atMs]) => atMs <= nowMs);
    for (const [domain] of due) {
      if (this.#stopController.signal.aborted) return;
      try {
        await this.checkDomain(domain);
      } catch (error) {
        if (this.#stopController.signal.aborted) return;
        logger.error({ err: error, domain }, 'API endpoint hint check failed; tried again later');
        this.#noteDue(domain, clock.nowMs() + settings.deferMs);
      }
    }
  }

  /** One check of a domain's hints; what came of it. */
  async checkDomain(domain: string): Promise<VerificationRoundOutcome> {
    const { clock, rules, isSampling, metrics } = this.dependencies;
    if (isSampling(domain)) return 'nothing_due';
    const nowMs = clock.nowMs();
    const hints = await this.hintsOf(domain);
    const due = hints.filter((hint) => msOfTimeText(hint.next_check_at) <= nowMs);
    this.#dueAtMs.delete(domain);
    for (const hint of hints) {
      if (!due.includes(hint)) this.#noteDue(domain, msOfTimeText(hint.next_check_at));
    }
    if (due.length === 0) return 'nothing_due';
    const rule = await rules.get(domain);
    const outcome = await this.#check(domain, rule, hints, due, nowMs);
    metrics.apiEndpointVerificationCount.inc({ outcome });
    return outcome;
  }

  async #check(
    domain: string,
    rule: DomainRuleDocument | undefined,
    hints: ApiEndpointHintTaskDocument[],
    due: ApiEndpointHintTaskDocument[],
    nowMs: number,
  ): Promise<VerificationRoundOutcome> {
    const { settings } = this.dependencies;
    if (rule === undefined || rule.verdict === 'unknown') {
      // Still due: the rule decision wakes the domain; the deferral is only the fallback.
      await this.#record(due, nowMs, {
        note: 'waiting for the domain to be decided csr or partial',
        nextCheckAtMs: nowMs,
        lookAgainAtMs: nowMs + settings.deferMs,
      });
      return 'not_eligible';
    }
    if (!isRenderNeedingVerdict(rule.verdict)) {
      await this.#record(due, nowMs, {
        state: 'failed',
        note: `the rule says ${rule.verdict}: an API mapping only stands in for rendering`,
        nextCheckAtMs: nowMs + settings.retryAfterFailureMs,
      });
      return 'not_eligible';
    }
    const current = currentMapping(rule);
    if (
      current !== undefined &&
      due.every(
        (hint) =>
          hint.verification_state === 'pending' &&
          endpointUrlFor(current, hint.page_url) === hint.endpoint_url,
      )
    ) {
      await this.#record(due, nowMs, {
        state: 'verified',
        note: "reproduced by the rule's current mapping",
        nextCheckAtMs: nowMs + settings.recheckAfterVerifiedMs,
      });
      return 'covered_by_rule';
    }
    const inference = inferApiEndpoint(
      hints.map((hint) => ({
        pageUrl: hint.page_url,
        endpointUrl: hint.endpoint_url,
        contentPointer: hint.content_pointer,
      })),
    );
    if (inference.kind === 'none') {
      await this.#record(hints, nowMs, {
        state: 'failed',
        note: `no mapping: ${inference.reason}`,
        nextCheckAtMs: nowMs + settings.retryAfterFailureMs,
      });
      return 'failed';
    }
    // Hints of pages of another shape are set aside: the mapping is verified on the pages it fits.
    const explained = new Set(inference.explained.map((evidence) => evidence.endpointUrl));
    const fitting = hints.filter((hint) => explained.has(hint.endpoint_url));
    const outside = hints.filter((hint) => !explained.has(hint.endpoint_url));
    if (outside.length > 0) {
      await this.#record(outside, nowMs, {
        state: 'failed',
        note: "not explained by the domain's mapping (a page of another kind)",
        nextCheckAtMs: nowMs + settings.retryAfterFailureMs,
      });
    }
    const outcome = await this.#verify(rule, inference.apiEndpoint, fitting);
    return this.#apply(domain, inference.apiEndpoint, outcome, fitting, nowMs);
  }

  async #verify(
    rule: DomainRuleDocument,
    apiEndpoint: ApiEndpoint,
    hints: ApiEndpointHintTaskDocument[],
  ): Promise<EndpointVerificationOutcome> {
    const { settings, pageFetcher, requestClock } = this.dependencies;
    if (pageFetcher === undefined) {
      return { kind: 'deferred', note: 'no downloader to verify through' };
    }
    const signal = this.#stopController.signal;
    const requests = new DomainRequests(
      { downloader: pageFetcher, clock: requestClock ?? SYSTEM_CLOCK },
      {
        initialIntervalMs: rule.min_interval_ms,
        maxRateLimitWaitMs: settings.maxRateLimitWaitMs,
        signal,
      },
    );
    const pageUrlList = [
      ...new Set(
        [...hints]
          .sort((a, b) => msOfTimeText(b.observed_at) - msOfTimeText(a.observed_at))
          .map((hint) => hint.page_url),
      ),
    ].slice(0, settings.samplePageCount);
    try {
      return await verifyEndpoint({
        requests,
        apiEndpoint,
        pageUrlList,
        waitSelector: rule.wait_selector,
        plainTimeoutMs: settings.plainTimeoutMs,
        renderTimeoutMs: settings.renderTimeoutMs,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      return {
        kind: 'deferred',
        note: `the downloader could not be used: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }

  async #apply(
    domain: string,
    apiEndpoint: ApiEndpoint,
    outcome: EndpointVerificationOutcome,
    hints: ApiEndpointHintTaskDocument[],
    nowMs: number,
  ): Promise<VerificationRoundOutcome> {
    const { settings, lock, rules, logger } = this.dependencies;
    if (outcome.kind === 'deferred') {
      await this.#record(hints, nowMs, {
        note: outcome.note,
        nextCheckAtMs: nowMs + settings.deferMs,
      });
      return 'deferred';
    }
    const isVerified = outcome.kind === 'verified';
    // Read the rule again under the lock: the sampling loop may have re-decided it meanwhile.
    const written = await lock.run(async () => {
      const rule = await rules.get(domain);
      if (rule === undefined || !isRenderNeedingVerdict(rule.verdict)) return undefined;
      const current = currentMapping(rule);
      if (isVerified && isDeepStrictEqual(current, apiEndpoint)) return undefined;
      if (!isVerified && current === undefined) return undefined;
      return rules.record({
        ...decisionOfRule(rule),
        fetchStrategy: isVerified
          ? { renderStrategy: 'api', apiEndpoint }
          : { renderStrategy: 'render' },
      });
    });
    logger.info(
      {
        domain,
        is_verified: isVerified,
        api_endpoint: apiEndpoint,
        note: outcome.note,
        verified_at: written?.verified_at,
      },
      isVerified ? 'API endpoint verified' : 'API endpoint not verified',
    );
    await this.#record(hints, nowMs, {
      state: isVerified ? 'verified' : 'failed',
      note: outcome.note,
      nextCheckAtMs:
        nowMs + (isVerified ? settings.recheckAfterVerifiedMs : settings.retryAfterFailureMs),
    });
    return isVerified ? 'verified' : 'failed';
  }

  /** The domain's hints, newest observed first (at most `maxHintCount`). */
  async hintsOf(domain: string): Promise<ApiEndpointHintTaskDocument[]> {
    const hints: ApiEndpointHintTaskDocument[] = [];
    await walkTable(
      this.dependencies.tables.apiEndpointHints,
      ({ value }) => {
        hints.push(value);
      },
      primaryKeyPrefix(domain),
    );
    return hints
      .sort((a, b) => msOfTimeText(b.observed_at) - msOfTimeText(a.observed_at))
      .slice(0, this.dependencies.settings.maxHintCount);
  }

  /** Writes a check's outcome on the hints. */
  async #record(
    hints: ApiEndpointHintTaskDocument[],
    nowMs: number,
    record: HintRecord,
  ): Promise<void> {
    const { tables } = this.dependencies;
    await tables.apiEndpointHints.putMany(
      hints.map((hint) => ({
        primaryKey: primaryKey(hint.domain, hashOfNormalizedUrl(hint.endpoint_url)),
        value: {
          ...hint,
          verification_state: record.state ?? hint.verification_state,
          verification_note: record.note,
          checked_at: timeTextOf(nowMs),
          check_count: hint.check_count + 1,
          next_check_at: timeTextOf(record.nextCheckAtMs),
        },
      })),
    );
    if (hints.length > 0) {
      this.#noteDue(hints[0].domain, record.lookAgainAtMs ?? record.nextCheckAtMs);
    }
  }

  #noteDue(domain: string, atMs: number): void {
    const known = this.#dueAtMs.get(domain);
    if (known === undefined || atMs < known) this.#dueAtMs.set(domain, atMs);
  }
}

/** The rule's API mapping when it says api. */
function currentMapping(rule: DomainRuleDocument): ApiEndpoint | undefined {
  return rule.render_strategy === 'api' && rule.api_endpoint != null
    ? rule.api_endpoint
    : undefined;
}
