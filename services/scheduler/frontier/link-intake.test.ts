import { parseFrontierUrl, type FrontierUrl, type UrlListParser } from './frontier-url';
import { KnownUrlSet } from './known-url-set';
import { LinkIntake, type LinkOutcome } from './link-intake';
import { knownUrlTableMessage } from './link-preparation-protocol';
import { ThreadLinkPreparation } from './thread-link-preparation';
import type { AdmissionRequest, UrlAdmission } from './url-admission';
import type { ReportResult } from './wire-types';
import type { WriteBatch } from './write-batch';

const HELD = ['https://news.example/held-1', 'https://news.example/held-2'];
const FRESH = 'https://news.example/fresh';

/** A result of a rendered page with these link URLs (only what LinkIntake reads of a result). */
function pageWithLinks(urlHash: string, urls: string[]): ReportResult {
  return {
    url_hash: urlHash,
    render_strategy: 'browser',
    link_list: urls.map((url) => ({ url, rel: '', dom_position: 'main', anchor_text: 'x' })),
  } as unknown as ReportResult;
}

/** A parser that answers the HELD URLs as known when asked, and records whether it was asked. */
function parserKnowingHeld(askedWith: boolean[]): UrlListParser {
  return async (urls, options) => {
    askedWith.push(options?.isKnownAnswered ?? false);
    return urls.map((url) => {
      const parsed = parseFrontierUrl(url) as FrontierUrl;
      return options?.isKnownAnswered === true && HELD.includes(url)
        ? { isKnown: true, urlHash: parsed.urlHash }
        : parsed;
    });
  };
}

/** Admission that queues whatever it is asked, recording the requests. */
function recordingAdmission(admitted: AdmissionRequest[]): UrlAdmission {
  return {
    stage: async (_batch: WriteBatch, requests: readonly AdmissionRequest[]) => {
      admitted.push(...requests);
      return requests.map(() => 'queued' as const);
    },
  } as unknown as UrlAdmission;
}

/**
 * What the HTTP thread makes of a report's links (thread-link-preparation.ts), with the frontier's
 * known-URL set holding the HELD URLs shared with it as the main thread shares it.
 */
function threadPreparationKnowingHeld(): (results: ReportResult[]) => string {
  const knownUrls = new KnownUrlSet();
  for (const url of HELD) knownUrls.add((parseFrontierUrl(url) as FrontierUrl).urlHash);
  const preparation = new ThreadLinkPreparation();
  knownUrls.watchTables((table) => preparation.receive(knownUrlTableMessage(table)));
  return (results) => preparation.prepareReport({ result_list: results });
}

async function intakeOf(
  isKnownLinkDuplicate: boolean,
  preparedOnThread?: (results: ReportResult[]) => string,
) {
  let redoneCount = 0;
  const askedWith: boolean[] = [];
  const admitted: AdmissionRequest[] = [];
  const outcomes = new Map<LinkOutcome, number>();
  const intake = new LinkIntake(
    recordingAdmission(admitted),
    parserKnowingHeld(askedWith),
    (outcome, count) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + count),
    () => isKnownLinkDuplicate,
    () => (redoneCount += 1),
  );
  // Two pages of one report; both link to the first held URL and to the fresh one.
  const results = [
    pageWithLinks('a'.repeat(32), [HELD[0], FRESH, HELD[1]]),
    pageWithLinks('b'.repeat(32), [HELD[0], FRESH]),
  ];
  const prepared = await intake.prepare(results, preparedOnThread?.(results));
  await intake.stage({} as WriteBatch, prepared, ['a'.repeat(32), 'b'.repeat(32)], 0);
  return {
    askedWith,
    admitted: admitted.map((request) => request.target.url),
    outcomes,
    redoneCount,
  };
}

describe('LinkIntake', () => {
  it('counts links the preparation answered as known as duplicates, without admitting them', async () => {
    const { askedWith, admitted, outcomes } = await intakeOf(true);
    expect(askedWith).toEqual([true]);
    expect(admitted).toEqual([FRESH]);
    // Once per URL of the report, as admission counts them: held-1 sits on both pages.
    expect(outcomes.get('duplicate_url')).toBe(2);
    expect(outcomes.get('queued')).toBe(1);
  });

  it('has every link decided by admission while a known URL may be revived', async () => {
    const { askedWith, admitted, outcomes } = await intakeOf(false);
    expect(askedWith).toEqual([false]);
    expect(admitted.sort()).toEqual([...HELD, FRESH].sort());
    expect(outcomes.get('duplicate_url')).toBeUndefined();
    expect(outcomes.get('queued')).toBe(3);
  });

  it("takes the HTTP thread's preparation instead of asking the parser, known links counted as duplicates only while they may be", async () => {
    const known = await intakeOf(true, threadPreparationKnowingHeld());
    expect(known.askedWith).toEqual([]);
    expect(known.admitted).toEqual([FRESH]);
    expect(known.outcomes.get('duplicate_url')).toBe(2);

    const revivable = await intakeOf(false, threadPreparationKnowingHeld());
    expect(revivable.askedWith).toEqual([]);
    expect(revivable.admitted.sort()).toEqual([...HELD, FRESH].sort());
    expect(revivable.outcomes.get('duplicate_url')).toBeUndefined();
  });

  it("asks the parser when the thread's preparation does not line up with the report's links", async () => {
    const { askedWith, admitted, redoneCount } = await intakeOf(true, () => JSON.stringify([]));
    expect(askedWith).toEqual([true]);
    expect(admitted).toEqual([FRESH]);
    expect(redoneCount).toBe(1);
    const unreadable = await intakeOf(true, () => 'not json');
    expect(unreadable.askedWith).toEqual([true]);
    expect(unreadable.redoneCount).toBe(1);
    // Lined up: nothing redone.
    expect((await intakeOf(true, threadPreparationKnowingHeld())).redoneCount).toBe(0);
  });

  it('counts nofollow and invalid links once per report, summed over its applied results', async () => {
    const calls: Array<[LinkOutcome, number]> = [];
    const intake = new LinkIntake(
      recordingAdmission([]),
      parserKnowingHeld([]),
      (outcome, count) => calls.push([outcome, count]),
      () => false,
    );
    // Per result: one link not a URL, one fresh, one nofollow.
    const withNofollow = (urlHash: string): ReportResult =>
      ({
        url_hash: urlHash,
        render_strategy: 'browser',
        link_list: [
          { url: 'not a url', rel: '', dom_position: 'main', anchor_text: 'x' },
          { url: FRESH, rel: '', dom_position: 'main', anchor_text: 'x' },
          { url: `${FRESH}-n`, rel: 'nofollow', dom_position: 'main', anchor_text: 'x' },
        ],
      }) as unknown as ReportResult;
    const hashes = ['a'.repeat(32), 'b'.repeat(32), 'c'.repeat(32)];
    const prepared = await intake.prepare(hashes.map(withNofollow));
    // The third result was not applied: its links count for nothing.
    await intake.stage({} as WriteBatch, prepared, hashes.slice(0, 2), 0);
    expect(calls.filter(([outcome]) => outcome === 'nofollow')).toEqual([['nofollow', 2]]);
    expect(calls.filter(([outcome]) => outcome === 'invalid_url')).toEqual([['invalid_url', 2]]);
  });
});
