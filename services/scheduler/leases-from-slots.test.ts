import type { LeaseResponse, ReportResult } from './frontier/wire-types';
import { doneResult, failedResult, link, ruleFor } from './testing/contract-fixtures';
import { urlCounts } from './testing/lease-helpers';
import { ManualClock } from './testing/manual-clock';
import { startTestScheduler, type TestScheduler } from './testing/scheduler-test-harness';

/** A small seeded generator (mulberry32): the same traffic on every run. */
function randomOf(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return Math.floor((((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296) * below);
  };
}

const DOMAINS = Array.from({ length: 10 }, (_, index) => `d${index}.example`);
const ROBOTS_TXT = 'User-agent: *\nDisallow: /private/\n';

/** Both schedulers, answering every call: the leases must list the same URLs in the same order. */
interface Pair {
  slots: TestScheduler;
  keyspace: TestScheduler;
}

/**
 * With url_task held in memory a lease reads the domains' due queues slot by slot
 * (due-queue-slots.ts), and falls back to the keyspace's way of reading them — index keys merged
 * with staged entries, each checked against its document — where a URL has a change not yet
 * durable or its robots.txt verdict must be read again. Whichever way a queue is read, a lease must
 * hand out exactly what the keyspace frontier does: the same traffic — seeds, rules (one made
 * stricter by a newer robots.txt), leases of several sizes from three workers, reports with links,
 * failures and URLs left out, leases left to expire, time moving — goes to a scheduler on each, and
 * every answer is compared.
 */
describe('leases read from slots', () => {
  const clock = new ManualClock();
  let pair: Pair | undefined;
  afterEach(async () => {
    await Promise.all([pair?.slots.stop(), pair?.keyspace.stop()]);
    pair = undefined;
  });

  async function startPair(): Promise<Pair> {
    const start = (resident: 'on' | 'off') =>
      startTestScheduler({
        clock,
        // No upkeep ticks: each scheduler's state moves with the calls alone.
        flags: ['--domain-in-flight-cap', '3', '--maintenance-interval-ms', '60000'],
        environment: { SCHEDULER_RESIDENT_URL_TASKS: resident },
      });
    const [slots, keyspace] = await Promise.all([start('on'), start('off')]);
    pair = { slots, keyspace };
    return pair;
  }

  it.each([1, 2, 3])('hands out what the keyspace frontier does (traffic %i)', async (seed) => {
    const random = randomOf(seed);
    const { slots, keyspace } = await startPair();
    // Each answer compared but for its lease id, which each scheduler draws at random.
    const withoutLeaseId = (answer: object) => ({ ...answer, lease_id: undefined });
    const both = async (call: (scheduler: TestScheduler) => Promise<object>): Promise<void> => {
      const [fromSlots, fromKeyspace] = await Promise.all([call(slots), call(keyspace)]);
      expect(withoutLeaseId(fromSlots)).toEqual(withoutLeaseId(fromKeyspace));
    };
    await both(({ client }) =>
      client.submitRules({
        rule_list: DOMAINS.map((domain, index) =>
          ruleFor(domain, {
            priority_rank: 10 * (index % 3),
            min_interval_ms: [0, 0, 400, 1500][index % 4],
            robots_txt: index % 5 === 0 ? ROBOTS_TXT : null,
          }),
        ),
      }),
    );
    const seeds = DOMAINS.flatMap((domain) =>
      Array.from({ length: 8 }, (_, index) => ({
        url: `https://${domain}/${index % 6 === 5 ? 'private' : 'page'}-${index}`,
        ...(index % 3 === 0 ? { priority_rank: random(25) } : {}),
      })),
    );
    await both(({ client }) => client.submitSeeds({ seed_list: seeds }));

    // Each scheduler's own lease ids, by the lease's place in the traffic.
    const open: Array<{ slots: LeaseResponse; keyspace: LeaseResponse }> = [];
    let leasedCount = 0;
    let linkSerial = 0;
    for (let step = 0; step < 70; step += 1) {
      const action = random(10);
      if (action < 5) {
        const request = {
          worker_id: `w${random(3)}`,
          task_count: 1 + random(12),
          lease_ttl_seconds: 10 + random(15),
        };
        const [fromSlots, fromKeyspace] = await Promise.all([
          slots.client.leaseTasks(request),
          keyspace.client.leaseTasks(request),
        ]);
        expect(withoutLeaseId(fromSlots)).toEqual(withoutLeaseId(fromKeyspace));
        leasedCount += fromSlots.task_list.length;
        if (fromSlots.task_list.length > 0) open.push({ slots: fromSlots, keyspace: fromKeyspace });
      } else if (action < 8 && open.length > 0) {
        const [leases] = open.splice(random(open.length), 1);
        const results: ReportResult[] = [];
        for (const task of leases.slots.task_list) {
          const fate = random(6);
          if (fate === 0) continue; // left out: re-queued
          if (fate === 1) {
            results.push(failedResult(task, 'navigation_timeout'));
            continue;
          }
          const links = Array.from({ length: random(3) }, () => {
            linkSerial += 1;
            const domain = DOMAINS[random(DOMAINS.length)];
            return link(`https://${domain}/${random(4) === 0 ? 'private' : 'found'}-${linkSerial}`);
          });
          results.push(doneResult(task, { link_list: links }));
        }
        await both(({ client }) =>
          client.reportLease({
            lease_id: leases[client === slots.client ? 'slots' : 'keyspace'].lease_id,
            worker_id: leases.slots.worker_id,
            result_list: results,
          }),
        );
      } else if (action === 8) {
        // A newer robots.txt for one domain: its queued private URLs are parked at lease time.
        const domain = DOMAINS[random(DOMAINS.length)];
        await both(({ client }) =>
          client.submitRules({
            rule_list: [
              ruleFor(domain, {
                priority_rank: 10 * (DOMAINS.indexOf(domain) % 3),
                robots_txt: 'User-agent: *\nDisallow: /page-1\nDisallow: /found-\n',
                verified_at: new Date(clock.nowMs()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
              }),
            ],
          }),
        );
      } else {
        clock.advance(random(4000));
      }
    }
    expect(leasedCount).toBeGreaterThan(60);
    expect(await urlCounts(slots.client)).toEqual(await urlCounts(keyspace.client));
  });
});
