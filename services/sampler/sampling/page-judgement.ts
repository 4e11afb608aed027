import { detectBotChallenge } from '../../common/challenge/challenge-detection';
import type { PageAnalysis } from './page-analysis';
import { TokenCounts } from './text-tokens';
import type { VerdictThresholds } from './sampling-policy';

/**
 * One page, fetched plain and rendered, judged by comparing what a reader sees in each.
 *
 * The measures (token shares; tokens are words, or character bigrams in CJK scripts):
 *  - renderOnlyShare: the share of the rendered page's main content (chrome removed) that is
 *    nowhere in the plain page's visible text. 0 = plain HTTP already carries the content (ssr),
 *    1 = the content exists only after rendering (csr).
 *  - serverShare: the share of everything visible after rendering (chrome included) that the plain
 *    page already showed — the server shell. A render-only main inside a real server shell
 *    (header, navigation, footer text) is partial, not csr.
 *  - plainSurvival: the share of the plain page's content still visible after rendering; low
 *    while both carry content means a script replaced the page with another one.
 *
 * Hydration data: a JSON payload (`__NEXT_DATA__`, `application/json` scripts, `__NUXT__`, …) in
 * the plain HTML carries the data but not as visible text, so it does not count as "plain HTTP
 * carries the content": the ssr branch hands a domain to a plain-HTTP module that reads pages,
 * not a framework's private state, and only rendering turns such a payload into the page. A
 * payload next to server-rendered text (real SSR with hydration) changes nothing either: that
 * text is visible, the page is ssr. The payload is reported as evidence (how much of the
 * render-only text it holds), never as content.
 */

export interface PageMeasures {
  readonly renderedContentTokenCount: number;
  readonly plainContentTokenCount: number;
  readonly plainVisibleTokenCount: number;
  readonly renderOnlyShare: number;
  readonly serverShare: number;
  readonly plainSurvival: number;
  /** Share of the render-only tokens found in the plain page's hydration payloads. */
  readonly payloadShare: number;
}

export type DecisiveVerdict = 'csr' | 'partial' | 'ssr';

export type PageJudgement =
  | {
      readonly kind: DecisiveVerdict;
      readonly measures: PageMeasures;
      /** 0.5–1: how far from the thresholds and how much text it rests on. */
      readonly confidence: number;
      readonly evidenceList: readonly string[];
    }
  | {
      readonly kind: 'thin' | 'inconsistent';
      readonly measures: PageMeasures;
      readonly evidenceList: readonly string[];
    }
  | { readonly kind: 'login' | 'challenge'; readonly evidenceList: readonly string[] };

export interface PageJudgementInput {
  /** The plain response body, analysed; null when the plain fetch failed (4xx/5xx). */
  readonly plain: PageAnalysis | null;
  readonly rendered: PageAnalysis;
  /** The rendered page's final URL (after redirects, also client-side ones). */
  readonly renderedFinalUrl: string;
}

const LOGIN_PATH =
  /(^|[/_.-])(log-?in|sign-?in|signon|auth|session|sso|account\/?login)([/_.?-]|$)/i;

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function measurePage(plain: PageAnalysis | null, rendered: PageAnalysis): PageMeasures {
  const plainVisible = plain?.visibleTokens ?? new TokenCounts();
  const plainContent = plain?.contentTokens ?? new TokenCounts();
  const covered = rendered.contentTokens.overlapWith(plainVisible);
  const renderOnly = new TokenCounts();
  for (const [token, count] of rendered.contentTokens.entries()) {
    const missing = count - Math.min(count, plainVisible.countOf(token));
    if (missing > 0) renderOnly.add(token, missing);
  }
  const renderedContent = rendered.contentTokens.size;
  return {
    renderedContentTokenCount: renderedContent,
    plainContentTokenCount: plainContent.size,
    plainVisibleTokenCount: plainVisible.size,
    renderOnlyShare: renderedContent === 0 ? 0 : round(1 - covered / renderedContent),
    serverShare: round(
      rendered.visibleTokens.size === 0 ? 1 : rendered.visibleTokens.coveredShareBy(plainVisible),
    ),
    plainSurvival: round(plainContent.coveredShareBy(rendered.visibleTokens)),
    payloadShare: round(
      renderOnly.size === 0 || plain === null
        ? 0
        : renderOnly.coveredShareBy(plain.hydrationTokens),
    ),
  };
}

function isLoginWall(page: PageAnalysis, finalUrl: string, thresholds: VerdictThresholds): boolean {
  if (!page.hasPasswordField) return false;
  const path = safePath(finalUrl);
  return (
    page.formFreeContentTokenCount < thresholds.loginMaxContentTokenCount ||
    (LOGIN_PATH.test(path) &&
      page.formFreeContentTokenCount < 3 * thresholds.loginMaxContentTokenCount)
  );
}

function safePath(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return '';
  }
}

function challengeOf(page: PageAnalysis): string | undefined {
  return detectBotChallenge({
    headers: {},
    title: page.title,
    visibleTextLength: page.visibleTextLength,
    html: page.html,
  });
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** What the plain page says about how it is built (evidence only). */
function markerEvidence(plain: PageAnalysis | null, measures: PageMeasures): string[] {
  if (plain === null) return [];
  const evidence: string[] = [];
  if (plain.emptyMountPointList.length > 0) {
    evidence.push(`empty mount point in plain HTML: ${plain.emptyMountPointList.join(', ')}`);
  }
  if (plain.hydrationPayloadList.length > 0) {
    evidence.push(
      `hydration payload ${plain.hydrationPayloadList.join(', ')} holds ${Math.round(
        measures.payloadShare * 100,
      )} % of the render-only text`,
    );
  }
  if (plain.hasNoscriptJavaScriptNotice) evidence.push('<noscript> asks for JavaScript');
  if (plain.hasTemplateSyntax) evidence.push('unrendered {{ template }} syntax in plain HTML');
  return evidence;
}

export function judgePage(input: PageJudgementInput, thresholds: VerdictThresholds): PageJudgement {
  const { plain, rendered } = input;
  if (isLoginWall(rendered, input.renderedFinalUrl, thresholds)) {
    return {
      kind: 'login',
      evidenceList: [
        `login form with ${rendered.formFreeContentTokenCount} content tokens at ${safePath(input.renderedFinalUrl)}`,
      ],
    };
  }
  const challenge = challengeOf(rendered);
  if (challenge !== undefined) return { kind: 'challenge', evidenceList: [challenge] };

  const measures = measurePage(plain, rendered);
  const evidence = markerEvidence(plain, measures);
  const shares = `render-only ${measures.renderOnlyShare}, server ${measures.serverShare}, ${measures.renderedContentTokenCount} content tokens`;
  const min = thresholds.minContentTokenCount;
  if (measures.renderedContentTokenCount < min) {
    return measures.plainContentTokenCount < min
      ? { kind: 'thin', measures, evidenceList: [`no content (${shares})`, ...evidence] }
      : {
          kind: 'inconsistent',
          measures,
          evidenceList: [`content vanished when rendered (${shares})`, ...evidence],
        };
  }
  if (
    measures.plainContentTokenCount >= min &&
    measures.plainSurvival < thresholds.inconsistentMaxPlainSurvival &&
    measures.renderOnlyShare >= thresholds.csrMinRenderOnlyShare
  ) {
    return {
      kind: 'inconsistent',
      measures,
      evidenceList: [
        `rendering replaced the plain content (survival ${measures.plainSurvival}; ${shares})`,
        ...evidence,
      ],
    };
  }

  const sizeFactor = clamp01(measures.renderedContentTokenCount / (8 * min));
  const withConfidence = (kind: DecisiveVerdict, margin: number): PageJudgement => ({
    kind,
    measures,
    confidence: round(0.5 + 0.5 * clamp01(margin) * (0.5 + 0.5 * sizeFactor)),
    evidenceList: [`${kind} (${shares})`, ...evidence],
  });
  const share = measures.renderOnlyShare;
  if (share <= thresholds.ssrMaxRenderOnlyShare) {
    return withConfidence(
      'ssr',
      (thresholds.ssrMaxRenderOnlyShare - share) / thresholds.ssrMaxRenderOnlyShare,
    );
  }
  const partialBand = thresholds.csrMinRenderOnlyShare - thresholds.ssrMaxRenderOnlyShare;
  if (share < thresholds.csrMinRenderOnlyShare) {
    const distance = Math.min(
      share - thresholds.ssrMaxRenderOnlyShare,
      thresholds.csrMinRenderOnlyShare - share,
    );
    return withConfidence('partial', distance / (partialBand / 2));
  }
  const hasServerShell =
    measures.serverShare >= thresholds.partialMinServerShare &&
    Math.round(measures.serverShare * rendered.visibleTokens.size) >=
      thresholds.partialMinServerTokenCount;
  if (hasServerShell) {
    return withConfidence(
      'partial',
      (measures.serverShare - thresholds.partialMinServerShare) / thresholds.partialMinServerShare,
    );
  }
  return withConfidence(
    'csr',
    (share - thresholds.csrMinRenderOnlyShare) / (1 - thresholds.csrMinRenderOnlyShare),
  );
}

/** A plain page that is itself a challenge interstitial (the render is asked to confirm). */
export function plainChallengeOf(plain: PageAnalysis): string | undefined {
  return challengeOf(plain);
}
