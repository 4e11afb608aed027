import { join } from 'node:path';
import type { OperationInput } from '../common/contract-runtime/contract-router';
import { startHttpEdge } from '../common/service-host/http-edge';
import {
  HTTP_EDGE_TEST_TOKEN,
  httpEdgeTestOptions,
} from '../common/testing/http-edge-test-options';
import type { ServiceListener } from '../common/service-host/service-listener';
import { urlHash } from '../common/url';
import { KnownUrlSet } from './frontier/known-url-set';
import { decodePreparedUrls, knownUrlTableMessage } from './frontier/link-preparation-protocol';
import { doneResult, link } from './testing/contract-fixtures';

const HELD = 'https://news.example/held';
const FRESH = 'https://news.example/fresh';

describe("the scheduler's HTTP thread", () => {
  let listener: ServiceListener | undefined;
  afterEach(async () => {
    await listener?.close();
    listener = undefined;
  });

  it("prepares a report's links against the known URLs the main thread shares, and forwards them with the report", async () => {
    const knownUrls = new KnownUrlSet();
    knownUrls.add(urlHash(HELD));
    const prepared: unknown[] = [];
    listener = await startHttpEdge(
      httpEdgeTestOptions(
        { surfaceModule: join(__dirname, 'scheduler-http-edge') },
        {
          invokers: {
            reportLease: async (input: OperationInput) => {
              prepared.push(input.preparedOnThread);
              const body = input.body as { lease_id: string };
              return {
                lease_id: body.lease_id,
                is_stale_lease: false,
                accepted_count: 1,
                requeued_count: 0,
              };
            },
          },
          shareWithThread: (post) =>
            knownUrls.watchTables((table) => post(knownUrlTableMessage(table))),
        },
      ),
    );
    const report = {
      lease_id: 'l-0123456789abcdef',
      worker_id: 'w1',
      result_list: [
        doneResult(
          { url: 'https://news.example/', url_hash: urlHash('https://news.example/') },
          {
            link_list: [
              link(HELD),
              link(`${FRESH}#part`),
              link('https://news.example/skipped', { rel: 'nofollow' }),
            ],
          },
        ),
      ],
    };
    // The tables cross as a notice after the thread listens: bounded retries until it has them.
    let answers: ReturnType<typeof decodePreparedUrls> = [];
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const response = await fetch(`${listener.url}/v1/report`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${HTTP_EDGE_TEST_TOKEN}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(report),
      });
      expect(response.status).toBe(200);
      answers = decodePreparedUrls(prepared.at(-1) as string, true);
      const first = answers[0];
      if (typeof first === 'object' && 'isKnown' in first) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const fresh = { url: FRESH, urlHash: urlHash(FRESH), domain: 'news.example' };
    // The nofollow link is not among them; the fresh one is normalized (its fragment dropped).
    expect(answers).toEqual([{ isKnown: true, urlHash: urlHash(HELD) }, fresh]);
    // While known links may revive a dropped URL, the main thread reads the held one in full.
    expect(decodePreparedUrls(prepared.at(-1) as string, false)).toEqual([
      { url: HELD, urlHash: urlHash(HELD), domain: 'news.example' },
      fresh,
    ]);
  });
});
