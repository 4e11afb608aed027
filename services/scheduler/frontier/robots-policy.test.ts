import { contentHash } from '../../common/url';
import { RobotsPolicy } from './robots-policy';

const SHARED = 'User-agent: *\nDisallow: /private/\n';
const STRICT = 'User-agent: *\nDisallow: /\nAllow: /public$\n';
const FOR_OTHERS = 'User-agent: other-bot\nDisallow: /\n';

/** A policy over a mutable domain → robots.txt map, counting the storage reads it makes. */
function policyOver(texts: Map<string, string>, generationSize?: number) {
  const loads: string[] = [];
  const policy = new RobotsPolicy({
    robotsTextHashOf: (domain) => {
      const text = texts.get(domain);
      return text === undefined ? undefined : contentHash(text);
    },
    loadRobotsText: async (domain) => {
      loads.push(domain);
      return texts.get(domain);
    },
    userAgent: 'render-crawler',
    generationSize,
  });
  return { policy, loads };
}

describe('RobotsPolicy', () => {
  it('answers from each domain’s own file, for both schemes and with the query string', async () => {
    const texts = new Map([
      ['shared.example', SHARED],
      ['strict.example', STRICT],
      ['others.example', FOR_OTHERS],
    ]);
    const { policy } = policyOver(texts);
    expect(await policy.isAllowed('shared.example', 'https://shared.example/private/a')).toBe(
      false,
    );
    expect(await policy.isAllowed('shared.example', 'http://shared.example/private/a')).toBe(false);
    expect(await policy.isAllowed('shared.example', 'https://shared.example/open?x=1')).toBe(true);
    expect(await policy.isAllowed('strict.example', 'https://strict.example/public')).toBe(true);
    expect(await policy.isAllowed('strict.example', 'https://strict.example/public?x=1')).toBe(
      false,
    );
    expect(await policy.isAllowed('strict.example', 'https://strict.example:8443/')).toBe(false);
    expect(await policy.isAllowed('others.example', 'https://others.example/a')).toBe(true);
    // No rule, or a rule without a file: everything is allowed and nothing is read.
    expect(await policy.isAllowed('unknown.example', 'https://unknown.example/private/')).toBe(
      true,
    );
  });

  it('parses a file shared by many domains once, and reads storage only on a miss', async () => {
    const texts = new Map(
      Array.from({ length: 50 }, (_, index) => [`d${index}.example`, SHARED] as const),
    );
    const { policy, loads } = policyOver(texts);
    for (const domain of texts.keys()) {
      expect(await policy.isAllowed(domain, `https://${domain}/private/x`)).toBe(false);
      expect(await policy.isAllowed(domain, `https://${domain}/x`)).toBe(true);
    }
    expect(loads).toEqual(['d0.example']);
  });

  it('answers without a read only what it knows: no file, or a file parsed already', async () => {
    const texts = new Map([
      ['a.example', SHARED],
      ['b.example', SHARED],
      ['c.example', STRICT],
    ]);
    const { policy, loads } = policyOver(texts);
    expect(policy.knownVerdict('none.example', 'https://none.example/private/')).toBe(true);
    expect(policy.knownVerdict('a.example', 'https://a.example/private/x')).toBeUndefined();
    expect(loads).toEqual([]);
    expect(await policy.isAllowed('a.example', 'https://a.example/private/x')).toBe(false);
    // b.example shares a.example's file, parsed now; c.example's is not.
    expect(policy.knownVerdict('b.example', 'https://b.example/private/x')).toBe(false);
    expect(policy.knownVerdict('b.example', 'https://b.example/x')).toBe(true);
    expect(policy.knownVerdict('c.example', 'https://c.example/public')).toBeUndefined();
    expect(loads).toEqual(['a.example']);
  });

  it('follows a new rule at once: its new file has a new hash', async () => {
    const texts = new Map([['moving.example', SHARED]]);
    const { policy } = policyOver(texts);
    expect(await policy.isAllowed('moving.example', 'https://moving.example/page')).toBe(true);
    texts.set('moving.example', STRICT);
    expect(await policy.isAllowed('moving.example', 'https://moving.example/page')).toBe(false);
  });

  it('keeps recently used files when older ones are dropped (two generations)', async () => {
    const texts = new Map(
      Array.from(
        { length: 6 },
        (_, index) => [`d${index}.example`, `User-agent: *\nDisallow: /only-${index}\n`] as const,
      ),
    );
    const { policy, loads } = policyOver(texts, 2);
    const ask = (index: number) =>
      policy.isAllowed(`d${index}.example`, `https://d${index}.example/only-${index}`);
    for (const index of [0, 1, 2, 0, 3, 4, 0]) expect(await ask(index)).toBe(false);
    // 0 is asked again before each generation turns, so it is read once; 5 is never asked.
    expect(loads.filter((domain) => domain === 'd0.example')).toHaveLength(1);
    expect(await ask(1)).toBe(false);
    expect(loads.filter((domain) => domain === 'd1.example')).toHaveLength(2);
  });
});
