import { ChallengeEvidence, detectBotChallenge } from './challenge-detection';

const page = (overrides: Partial<ChallengeEvidence>): ChallengeEvidence => ({
  headers: {},
  title: 'Ordinary page',
  visibleTextLength: 200,
  html: '<html><body>hello</body></html>',
  ...overrides,
});

describe('detectBotChallenge', () => {
  test.each([
    [
      'the cf-mitigated header',
      page({ headers: { 'cf-mitigated': 'challenge' }, visibleTextLength: 50_000 }),
    ],
    ['a Cloudflare title', page({ title: 'Just a moment...' })],
    ['an "Attention Required" title', page({ title: 'Attention Required! | Cloudflare' })],
    ['a human-verification title', page({ title: 'Verifying you are human' })],
    [
      'a Cloudflare script',
      page({ html: '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/x"></script>' }),
    ],
    [
      'a DataDome script',
      page({ html: '<script src="https://ct.captcha-delivery.com/c.js"></script>' }),
    ],
  ])('recognizes %s', (_label, evidence) => {
    expect(detectBotChallenge(evidence)).toBeDefined();
  });

  test.each([
    ['an ordinary short page', page({})],
    [
      'a long article titled like a challenge',
      page({ title: 'Just a moment of silence', visibleTextLength: 5000 }),
    ],
    [
      'a long page that embeds a challenge script',
      page({
        html: '<script src="/cdn-cgi/challenge-platform/x"></script>',
        visibleTextLength: 4000,
      }),
    ],
    ['a page whose title merely mentions a moment', page({ title: 'Wait just a moment' })],
    ['an unrelated cf-mitigated value', page({ headers: { 'cf-mitigated': 'none' } })],
  ])('ignores %s', (_label, evidence) => {
    expect(detectBotChallenge(evidence)).toBeUndefined();
  });
});
