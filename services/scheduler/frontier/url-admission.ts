import type { CandidateRegistry } from './candidate-registry';
import type { UrlTaskDocument } from './frontier-documents';
import type { DomainBook } from './domain-book';
import { KNOWN_URL, type FrontierStore, type UrlTaskChange } from './frontier-store';
import type { FrontierUrl } from './frontier-url';
import { effectiveRank } from './priority-rank';
import type { RobotsPolicy } from './robots-policy';
import type { RuleBook } from './rule-book';
import { newUrlTask, type NewUrlTaskFields } from './url-task-factory';
import type { WriteBatch } from './write-batch';

/** A URL offered to the frontier by a seed or a discovered link. */
export interface AdmissionRequest {
  target: FrontierUrl;
  seedPriorityRank: number | null;
  priorityRankOffset: number;
  /** Seeds are always kept; links to a domain without a rule are capped per domain. */
  isSeed: boolean;
}

export type AdmissionOutcome =
  | 'queued'
  | 'waiting_for_rule'
  | 'duplicate_url'
  | 'robots_disallowed'
  | 'domain_excluded'
  | 'waiting_cap_reached';

/** What admission decided for one URL, and its new url_task when it is kept. */
interface Decision {
  outcome: AdmissionOutcome;
  next?: UrlTaskDocument;
}

/** #decide's answer when the domain's robots.txt is known by its hash but not read yet. */
const ROBOTS_FILE_UNREAD = Symbol('robots file unread');

/** getMany is one round trip; this bounds the keys per trip on TiKV. */
const LOOKUP_CHUNK_SIZE = 2000;

/**
 * The one way a URL enters the frontier (seeds and links alike): de-duplicated by url_hash against
 * the request and the frontier, then by its domain's rule — queued (csr, partial) unless robots.txt
 * disallows it, refused for ssr and unknown, or waiting as a domain candidate when there is no rule.
 * A URL dropped earlier (its domain was excluded) is revived when its domain is crawlable now.
 *
 * Callers hold the mutation lock and commit the batch.
 */
export interface UrlAdmissionDependencies {
  store: FrontierStore;
  /** Its stored counts say whether a domain has dropped URLs (which admission may revive). */
  book: DomainBook;
  /** Dropped URLs in the whole frontier: none (the usual case) means no link can revive one. */
  droppedUrlCount: () => number;
  rules: RuleBook;
  robots: RobotsPolicy;
  candidates: CandidateRegistry;
  /** Links kept per domain without a rule (seeds are always kept). */
  maxWaitingUrlCountPerDomain: number;
}

export class UrlAdmission {
  constructor(private readonly dependencies: UrlAdmissionDependencies) {}

  /** Decides every request and stages the resulting writes into `batch`. */
  async stage(
    batch: WriteBatch,
    requests: readonly AdmissionRequest[],
    nowMs: number,
  ): Promise<AdmissionOutcome[]> {
    const outcomes: AdmissionOutcome[] = new Array(requests.length);
    const uniqueIndexes: number[] = [];
    const seenHashes = new Set<string>();
    requests.forEach((request, index) => {
      if (seenHashes.has(request.target.urlHash)) {
        outcomes[index] = 'duplicate_url';
      } else {
        seenHashes.add(request.target.urlHash);
        uniqueIndexes.push(index);
      }
    });
    const existing = await this.#lookUp(uniqueIndexes.map((index) => requests[index].target));

    const changes: UrlTaskChange[] = [];
    const waitingUrlsByDomain = new Map<string, string[]>();
    for (let position = 0; position < uniqueIndexes.length; position += 1) {
      const index = uniqueIndexes[position];
      const request = requests[index];
      const known = existing[position];
      // Most links of a page are known already: answered here, without an async decision each.
      if (known === KNOWN_URL || (known !== undefined && known.url_state !== 'dropped')) {
        outcomes[index] = 'duplicate_url';
        continue;
      }
      let decided = this.#decide(request, known, waitingUrlsByDomain, nowMs);
      if (decided === ROBOTS_FILE_UNREAD) {
        const { target } = request;
        const isAllowed = await this.dependencies.robots.isAllowed(target.domain, target.url);
        decided = this.#decide(request, known, waitingUrlsByDomain, nowMs, isAllowed);
      }
      if (decided === ROBOTS_FILE_UNREAD)
        throw new Error('admission asked for robots.txt after its verdict');
      outcomes[index] = decided.outcome;
      if (decided.next !== undefined) {
        changes.push({ previous: known, next: decided.next });
      }
    }
    await this.dependencies.candidates.stageWaiting(batch, waitingUrlsByDomain, nowMs);
    this.dependencies.store.stage(batch, changes);
    return outcomes;
  }

  /**
   * A URL the frontier does not hold (undefined) or holds only as dropped (to be revived).
   * Synchronous — one promise less per admitted link — unless the domain's robots.txt must be read
   * first: then ROBOTS_FILE_UNREAD, before anything is decided, and the caller asks again with the
   * file's verdict (`robotsVerdict`).
   */
  #decide(
    request: AdmissionRequest,
    previous: UrlTaskDocument | undefined,
    waitingUrlsByDomain: Map<string, string[]>,
    nowMs: number,
    robotsVerdict?: boolean,
  ): Decision | typeof ROBOTS_FILE_UNREAD {
    const { target } = request;
    const rankInputs = {
      seed_priority_rank: request.seedPriorityRank,
      priority_rank_offset: request.priorityRankOffset,
    };
    const rule = this.dependencies.rules.get(target.domain);
    if (rule !== undefined) {
      if (!rule.isCrawlable) return { outcome: 'domain_excluded' };
      const isAllowed =
        robotsVerdict ?? this.dependencies.robots.knownVerdict(target.domain, target.url);
      if (isAllowed === undefined) return ROBOTS_FILE_UNREAD;
      if (!isAllowed) return { outcome: 'robots_disallowed' };
      const fields: NewUrlTaskFields = {
        url_state: 'queued',
        priority_rank: effectiveRank(rankInputs, rule),
        seed_priority_rank: rankInputs.seed_priority_rank,
        priority_rank_offset: rankInputs.priority_rank_offset,
        robots_rule_verified_at: rule.verifiedAt,
      };
      return { outcome: 'queued', next: newUrlTask(target, fields, nowMs, previous) };
    }
    const waitingUrls = waitingUrlsByDomain.get(target.domain) ?? [];
    const waitingCount =
      this.dependencies.candidates.waitingUrlCount(target.domain) + waitingUrls.length;
    if (!request.isSeed && waitingCount >= this.dependencies.maxWaitingUrlCountPerDomain) {
      return { outcome: 'waiting_cap_reached' };
    }
    waitingUrls.push(target.url);
    waitingUrlsByDomain.set(target.domain, waitingUrls);
    const fields: NewUrlTaskFields = {
      url_state: 'waiting_for_rule',
      priority_rank: null,
      seed_priority_rank: rankInputs.seed_priority_rank,
      priority_rank_offset: rankInputs.priority_rank_offset,
      robots_rule_verified_at: null,
    };
    return { outcome: 'waiting_for_rule', next: newUrlTask(target, fields, nowMs, previous) };
  }

  /**
   * The frontier's URLs among `targets`. A document is read only where it can matter: a URL of a
   * domain with dropped URLs may be one of them, to be revived; elsewhere an existing URL is a
   * duplicate whatever its document says, so its presence is enough.
   */
  async #lookUp(
    targets: readonly FrontierUrl[],
  ): Promise<Array<UrlTaskDocument | typeof KNOWN_URL | undefined>> {
    const found: Array<UrlTaskDocument | typeof KNOWN_URL | undefined> = [];
    // Without a dropped URL anywhere no domain is asked: a lookup in a map of every domain, for
    // every link of every report, was ~1 % of the scheduler's CPU at 1M URLs (bench:frontier).
    const mayReviveAny = this.dependencies.droppedUrlCount() > 0;
    for (let start = 0; start < targets.length; start += LOOKUP_CHUNK_SIZE) {
      const chunk = targets.slice(start, start + LOOKUP_CHUNK_SIZE);
      found.push(
        ...(await this.dependencies.store.lookUpUrlTasks(
          chunk.map((target) => target.urlHash),
          (index) =>
            mayReviveAny &&
            (this.dependencies.book.get(chunk[index].domain)?.stored.dropped ?? 0) > 0,
        )),
      );
    }
    return found;
  }
}
