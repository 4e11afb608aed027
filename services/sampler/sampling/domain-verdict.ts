import type { UndeterminedReason, Verdict } from './domain-sampler';
import type { DecisiveVerdict, PageJudgement } from './page-judgement';
import type { VerdictThresholds } from './sampling-policy';

/** What became of one sampled URL. */
export type PageRecord =
  | { readonly kind: 'judged'; readonly url: string; readonly judgement: PageJudgement }
  /** The downloader answered 502 with this fail_reason (or the body was not HTML: `not_html`). */
  | { readonly kind: 'failed'; readonly url: string; readonly failReason: string }
  /** The downloader refused the request (400) or 429s outlasted the budget. */
  | { readonly kind: 'not_fetched'; readonly url: string; readonly why: string };

export interface DomainJudgement {
  readonly verdict: Verdict;
  readonly undeterminedReason: UndeterminedReason | null;
  readonly confidenceScore: number;
  readonly evidenceList: readonly string[];
}

const UNREACHABLE_FAILURES = new Set([
  'connection_failed',
  'navigation_timeout',
  'tls_failed',
  'http_server_error',
  'origin_throttled',
]);

/** The origin did not answer usefully: sampling more pages would only press a failing site. */
export function isUnreachableFailure(failReason: string): boolean {
  return UNREACHABLE_FAILURES.has(failReason);
}

function undetermined(
  reason: UndeterminedReason,
  confidenceScore: number,
  evidence: string,
): DomainJudgement {
  return {
    verdict: 'unknown',
    undeterminedReason: reason,
    confidenceScore,
    evidenceList: [evidence],
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

type Decisive = Extract<PageJudgement, { kind: DecisiveVerdict }>;

function decisiveVerdict(
  decisive: readonly Decisive[],
  inconsistentCount: number,
  thresholds: VerdictThresholds,
  agreeingPageCount: number,
): DomainJudgement {
  const count = (kind: DecisiveVerdict) => decisive.filter((page) => page.kind === kind).length;
  const csr = count('csr');
  const partial = count('partial');
  const ssr = count('ssr');
  const total = decisive.length + inconsistentCount;
  const tally = `${csr} csr, ${partial} partial, ${ssr} ssr, ${inconsistentCount} inconsistent`;
  let verdict: DecisiveVerdict;
  if ((csr + partial) / total >= thresholds.majorityShare) {
    // Between csr and partial a tie goes to csr: both are crawled, and csr's wait is the safer one.
    verdict = csr >= partial ? 'csr' : 'partial';
  } else if (ssr / total >= thresholds.majorityShare) {
    verdict = 'ssr';
  } else if (csr === 0 && inconsistentCount === 0) {
    // Server pages next to partly client-filled ones: part of the content needs rendering.
    verdict = 'partial';
  } else {
    return undetermined(
      'render_inconsistent',
      round(Math.max(csr + partial, ssr) / total),
      `samples disagree: ${tally}`,
    );
  }
  const family = verdict === 'ssr' ? ['ssr'] : ['csr', 'partial'];
  const winners = decisive.filter((page) => family.includes(page.kind));
  const meanConfidence = winners.reduce((sum, page) => sum + page.confidence, 0) / winners.length;
  const agreement = winners.length / total;
  const coverage = Math.min(1, decisive.length / agreeingPageCount);
  return {
    verdict,
    undeterminedReason: null,
    confidenceScore: round(meanConfidence * agreement * (0.6 + 0.4 * coverage)),
    evidenceList: [`pages: ${tally}`],
  };
}

/**
 * The domain's verdict from its sampled pages. A challenge anywhere decides (sampling is blocked);
 * otherwise the decisive pages vote (csr and partial as one family against ssr, needing
 * `majorityShare`); without decisive pages, the reason the pages failed decides.
 */
export function judgeDomain(
  records: readonly PageRecord[],
  thresholds: VerdictThresholds,
  agreeingPageCount: number,
): DomainJudgement {
  const judged = records.flatMap((record) => (record.kind === 'judged' ? [record.judgement] : []));
  const failures = records.flatMap((record) =>
    record.kind === 'failed' ? [record.failReason] : [],
  );
  const challenge = judged.find((page) => page.kind === 'challenge');
  if (challenge !== undefined || failures.includes('challenge_detected')) {
    return undetermined(
      'challenge_detected',
      0.9,
      `bot challenge: ${challenge?.evidenceList[0] ?? 'the downloader saw one'}`,
    );
  }
  const decisive = judged.filter(
    (page): page is Decisive =>
      page.kind === 'csr' || page.kind === 'partial' || page.kind === 'ssr',
  );
  const inconsistentCount = judged.filter((page) => page.kind === 'inconsistent').length;
  if (decisive.length > 0)
    return decisiveVerdict(decisive, inconsistentCount, thresholds, agreeingPageCount);

  const loginCount = judged.filter((page) => page.kind === 'login').length;
  if (loginCount > 0)
    return undetermined(
      'login_required',
      loginCount >= 2 ? 0.85 : 0.6,
      `${loginCount} sampled page(s) are a login wall`,
    );
  if (inconsistentCount > 0)
    return undetermined(
      'render_inconsistent',
      0.5,
      `${inconsistentCount} page(s) changed into other content when rendered`,
    );
  const thinCount = judged.filter((page) => page.kind === 'thin').length;
  if (thinCount > 0)
    return undetermined('sample_insufficient', 0.6, `${thinCount} page(s) without content`);
  if (failures.includes('dns_resolution_failed'))
    return undetermined('domain_not_resolvable', 0.9, 'the host name does not resolve');
  const unreachable = failures.filter(isUnreachableFailure);
  const robotsRefused = failures.filter((reason) => reason === 'robots_disallowed');
  if (unreachable.length > 0 && unreachable.length >= robotsRefused.length) {
    return undetermined(
      'origin_unreachable',
      0.8,
      `pages failed: ${[...new Set(unreachable)].join(', ')}`,
    );
  }
  if (robotsRefused.length > 0)
    return undetermined(
      'robots_disallowed',
      0.8,
      'the downloader refused the pages under robots.txt',
    );
  const reasons = [
    ...new Set([
      ...failures,
      ...records.flatMap((record) => (record.kind === 'not_fetched' ? [record.why] : [])),
    ]),
  ];
  return undetermined(
    'sample_insufficient',
    0.5,
    `no page could be judged${reasons.length > 0 ? `: ${reasons.join(', ')}` : ''}`,
  );
}
