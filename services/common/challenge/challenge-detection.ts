/**
 * Recognizes a bot-challenge interstitial (Cloudflare "Just a moment…", DataDome, PerimeterX,
 * Imperva, DDoS-Guard, …) so it is reported as `challenge_detected` instead of being stored as
 * content or mistaken for an ordinary 403/503.
 *
 * The heuristic, in order:
 *  1. the response says so: `cf-mitigated: challenge`;
 *  2. the page is short (visible text under SHORT_PAGE_CHARACTER_COUNT) AND either its title is a
 *     known challenge title or its HTML references a known challenge script/marker.
 * "Short" guards against false positives: a real article that merely embeds a captcha widget or
 * mentions "security check" has far more text than an interstitial.
 */

export interface ChallengeEvidence {
  /** Response headers, lowercase names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly title: string | null;
  /** Character count of the body's visible text. */
  readonly visibleTextLength: number;
  readonly html: string;
}

const SHORT_PAGE_CHARACTER_COUNT = 1000;

const CHALLENGE_TITLES: readonly RegExp[] = [
  /^just a moment/i,
  /^attention required/i,
  /^verif(y|ying) (that )?you are (a )?human/i,
  /^checking (your browser|if the site connection is secure)/i,
  /^ddos-guard/i,
  /^security check/i,
  /^are you a robot/i,
  /^human verification/i,
  /^pardon our interruption/i,
];

const CHALLENGE_MARKERS: readonly string[] = [
  '/cdn-cgi/challenge-platform/', // Cloudflare
  '_cf_chl_opt', // Cloudflare
  'captcha-delivery.com', // DataDome
  'px-captcha', // PerimeterX / HUMAN
  '_incapsula_resource', // Imperva
  'ddos-guard.net', // DDoS-Guard
  'awswafcaptcha', // AWS WAF
  'sgcaptcha', // SiteGround
];

/** Describes the rule that matched, or undefined when the page doesn't look like a challenge. */
export function detectBotChallenge(evidence: ChallengeEvidence): string | undefined {
  if ((evidence.headers['cf-mitigated'] ?? '').toLowerCase() === 'challenge') {
    return 'cf-mitigated: challenge header';
  }
  if (evidence.visibleTextLength >= SHORT_PAGE_CHARACTER_COUNT) return undefined;
  const title = (evidence.title ?? '').trim();
  if (CHALLENGE_TITLES.some((pattern) => pattern.test(title))) return `challenge title "${title}"`;
  const html = evidence.html.toLowerCase();
  const marker = CHALLENGE_MARKERS.find((candidate) => html.includes(candidate));
  return marker === undefined ? undefined : `challenge marker "${marker}"`;
}
