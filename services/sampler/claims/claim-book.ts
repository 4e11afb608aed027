import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { SamplerMetrics } from '../sampler-metrics';
import { ceilingTimeTextOf, msOfTimeText, timeTextOf, type Clock } from '../sampler-clock';
import type {
  ClaimDocument,
  ClaimState,
  DomainClaimDocument,
  UndeterminedReason,
} from '../storage/sampler-documents';
import type { SamplerTables } from '../storage/sampler-tables';
import { readAllDocuments, walkTable } from '../storage/table-walk';
import { effectiveClaimTtl, type EffectiveClaimTtl } from './claim-ttl';

const SECOND_MS = 1000;
const CLAIM_ID_ATTEMPTS = 8;

export interface ClaimBookDependencies {
  tables: SamplerTables;
  clock: Clock;
  logger: Logger;
  metrics: SamplerMetrics;
  /** Domains being sampled now: a claim never takes one. */
  isSampling: (domain: string) => boolean;
  /** How long an ended claim stays visible (operator view, late hints answered as rejected). */
  endedClaimRetentionSeconds: number;
}

/** What the sampler knows about an undecided domain, for the consumer who takes it. */
export interface UndecidedDomain {
  undeterminedReason: UndeterminedReason;
  minIntervalMs: number;
  robotsTxt: string | null;
}

export interface TakenClaim extends EffectiveClaimTtl {
  claim: ClaimDocument;
  domainRowList: DomainClaimDocument[];
}

/** A claim row with its state as of now: an active claim past expires_at reads as expired. */
export function claimStateAt(claim: ClaimDocument, nowMs: number): ClaimState {
  return claim.claim_state === 'active' && msOfTimeText(claim.expires_at) <= nowMs
    ? 'expired'
    : claim.claim_state;
}

/** True when a live claim holds the domain row now (read-time expiry: no sweeper needed). */
export function isHeldAt(row: DomainClaimDocument, nowMs: number): boolean {
  return (
    row.claim_id !== null &&
    row.claim_expires_at !== null &&
    msOfTimeText(row.claim_expires_at) > nowMs
  );
}

/**
 * The export boundary's state: `domain_claim_task` (one row per undecided domain: its politeness
 * data and the claim holding it) and `claim_task` (one row per claim). A claim works like a lease:
 * it holds its domains until a hint hands each back, until `expires_at` passes, or until its
 * consumer is revoked. Expiry needs nobody: every read compares `expires_at` with the clock, and
 * the sweeper only tidies rows and counts. Callers hold the sampler's state lock.
 */
export class ClaimBook {
  #exportedDomainCount = 0;

  private constructor(private readonly dependencies: ClaimBookDependencies) {}

  static async open(dependencies: ClaimBookDependencies): Promise<ClaimBook> {
    const book = new ClaimBook(dependencies);
    await book.#forEachDomainRow(() => {
      book.#exportedDomainCount += 1;
      return true;
    });
    await book.#repairEndedClaims();
    return book;
  }

  /** Undecided domains (offered or claimed). */
  get exportedDomainCount(): number {
    return this.#exportedDomainCount;
  }

  getDomain(domain: string): Promise<DomainClaimDocument | undefined> {
    return this.dependencies.tables.domainClaims.get(domain);
  }

  /** True while a live claim holds the domain: the sampler then sends it no request. */
  async isClaimed(domain: string): Promise<DomainClaimDocument | undefined> {
    const row = await this.dependencies.tables.domainClaims.get(domain);
    return row !== undefined && isHeldAt(row, this.dependencies.clock.nowMs()) ? row : undefined;
  }

  /** The domain stays (or becomes) undecided: exported, with what a consumer needs. */
  async markUndecided(domain: string, undecided: UndecidedDomain): Promise<DomainClaimDocument> {
    const { tables, clock } = this.dependencies;
    const nowMs = clock.nowMs();
    const previous = await tables.domainClaims.get(domain);
    const isStillHeld = previous !== undefined && isHeldAt(previous, nowMs);
    const row: DomainClaimDocument = {
      domain,
      undetermined_reason: undecided.undeterminedReason,
      min_interval_ms: undecided.minIntervalMs,
      robots_txt: undecided.robotsTxt,
      exported_at: previous?.exported_at ?? timeTextOf(nowMs),
      claim_id: isStillHeld ? previous.claim_id : null,
      consumer_id: isStillHeld ? previous.consumer_id : null,
      claim_expires_at: isStillHeld ? previous.claim_expires_at : null,
    };
    await tables.domainClaims.put(domain, row);
    if (previous === undefined) this.#exportedDomainCount += 1;
    return row;
  }

  /** The domain got a verdict: no longer exported. */
  async markDecided(domain: string): Promise<void> {
    const { tables } = this.dependencies;
    if ((await tables.domainClaims.get(domain)) === undefined) return;
    await tables.domainClaims.delete(domain);
    this.#exportedDomainCount -= 1;
  }

  /** Up to `limit` domains a claim could take now, in domain order. */
  async offered(limit: number): Promise<DomainClaimDocument[]> {
    const nowMs = this.dependencies.clock.nowMs();
    const found: DomainClaimDocument[] = [];
    await this.#forEachDomainRow((row) => {
      if (!isHeldAt(row, nowMs) && !this.dependencies.isSampling(row.domain)) found.push(row);
      return found.length < limit;
    });
    return found;
  }

  /**
   * Takes up to `domainCount` offered domains for the consumer. The TTL is capped at 7 days and the
   * answer says so. The claim row is written before its domains are marked: after a crash in
   * between, the unmarked domains simply stay offered.
   */
  async take(
    consumerId: string,
    domainCount: number,
    requestedTtlSeconds: number,
  ): Promise<TakenClaim> {
    const { tables, clock, metrics, logger } = this.dependencies;
    const ttl = effectiveClaimTtl(requestedTtlSeconds);
    const nowMs = clock.nowMs();
    const offered = await this.offered(domainCount);
    const expiresAt = ceilingTimeTextOf(nowMs + ttl.claimTtlSeconds * SECOND_MS);
    const claim = await this.#createClaim({
      claim_id: '',
      consumer_id: consumerId,
      claim_ttl_seconds: ttl.claimTtlSeconds,
      requested_claim_ttl_seconds: requestedTtlSeconds,
      claimed_at: timeTextOf(nowMs),
      expires_at: expiresAt,
      domain_list: offered.map((row) => row.domain),
      reported_domain_list: [],
      claim_state: 'active',
      ended_at: null,
    });
    const domainRowList = offered.map((row): DomainClaimDocument => ({
      ...row,
      claim_id: claim.claim_id,
      consumer_id: consumerId,
      claim_expires_at: expiresAt,
    }));
    await tables.domainClaims.putMany(
      domainRowList.map((row) => ({ primaryKey: row.domain, value: row })),
    );
    metrics.claimCount.inc({ truncation: ttl.isClaimTtlTruncated ? 'truncated' : 'as_asked' });
    metrics.claimedDomainCount.inc(domainRowList.length);
    logger.info(
      {
        claim_id: claim.claim_id,
        consumer_id: consumerId,
        domain_count: domainRowList.length,
        claim_ttl_seconds: ttl.claimTtlSeconds,
        is_claim_ttl_truncated: ttl.isClaimTtlTruncated,
      },
      'domains claimed',
    );
    return { ...ttl, claim, domainRowList };
  }

  getClaim(claimId: string): Promise<ClaimDocument | undefined> {
    return this.dependencies.tables.claims.get(claimId);
  }

  /**
   * A hint arrived for `domain` of a live claim: the domain goes back to the sampler. When every
   * domain of the claim is back, the claim is released.
   */
  async handBack(claimId: string, domain: string): Promise<ClaimDocument | undefined> {
    const { tables, clock } = this.dependencies;
    const row = await tables.domainClaims.get(domain);
    if (row !== undefined && row.claim_id === claimId) {
      await tables.domainClaims.put(domain, {
        ...row,
        claim_id: null,
        consumer_id: null,
        claim_expires_at: null,
      });
    }
    const claim = await tables.claims.get(claimId);
    if (claim === undefined || claim.reported_domain_list.includes(domain)) return claim;
    const reported = [...claim.reported_domain_list, domain];
    const isAllBack = claim.domain_list.every((member) => reported.includes(member));
    const next: ClaimDocument = { ...claim, reported_domain_list: reported };
    if (isAllBack && claimStateAt(claim, clock.nowMs()) === 'active') {
      return this.#end(next, 'released');
    }
    await tables.claims.put(claimId, next);
    return next;
  }

  /** Ends every claim past its expiry (tidying: reads already treat them as expired). */
  async sweepExpired(): Promise<number> {
    const nowMs = this.dependencies.clock.nowMs();
    const expired = (await this.#allClaims()).filter(
      (claim) => claim.claim_state === 'active' && claimStateAt(claim, nowMs) === 'expired',
    );
    for (const claim of expired) await this.#end(claim, 'expired');
    return expired.length;
  }

  /** The consumer was revoked: its live claims end now; answers the domains that returned. */
  async revokeConsumer(consumerId: string): Promise<string[]> {
    const nowMs = this.dependencies.clock.nowMs();
    const live = (await this.#allClaims()).filter(
      (claim) => claim.consumer_id === consumerId && claimStateAt(claim, nowMs) === 'active',
    );
    const returned: string[] = [];
    for (const claim of live) {
      await this.#end(claim, 'revoked');
      returned.push(
        ...claim.domain_list.filter((domain) => !claim.reported_domain_list.includes(domain)),
      );
    }
    return returned;
  }

  /** Every claim still kept (live, and ended ones within the retention), newest first. */
  async listClaims(): Promise<ClaimDocument[]> {
    const claims = await this.#allClaims();
    return claims.sort(
      (left, right) =>
        msOfTimeText(right.claimed_at) - msOfTimeText(left.claimed_at) ||
        right.claim_id.localeCompare(left.claim_id),
    );
  }

  async #end(claim: ClaimDocument, state: Exclude<ClaimState, 'active'>): Promise<ClaimDocument> {
    const { tables, clock, metrics, logger, endedClaimRetentionSeconds } = this.dependencies;
    const ended: ClaimDocument = {
      ...claim,
      claim_state: state,
      ended_at: timeTextOf(clock.nowMs()),
    };
    // The claim's state first: it is what hints are judged by.
    await tables.claims.put(claim.claim_id, ended, { ttlSeconds: endedClaimRetentionSeconds });
    await this.#releaseDomains(ended);
    metrics.claimEndCount.inc({ claim_state: state });
    logger.info(
      {
        claim_id: claim.claim_id,
        consumer_id: claim.consumer_id,
        claim_state: state,
        returned_domain_count: claim.domain_list.length - claim.reported_domain_list.length,
      },
      'claim ended; its domains are back with the sampler',
    );
    return ended;
  }

  async #releaseDomains(claim: ClaimDocument): Promise<void> {
    const { tables } = this.dependencies;
    const rows = await tables.domainClaims.getMany(claim.domain_list);
    const released = rows
      .filter((row): row is DomainClaimDocument => row?.claim_id === claim.claim_id)
      .map((row) => ({
        primaryKey: row.domain,
        value: { ...row, claim_id: null, consumer_id: null, claim_expires_at: null },
      }));
    await tables.domainClaims.putMany(released);
  }

  /** At start: a crash between ending a claim and freeing its domains is finished now. */
  async #repairEndedClaims(): Promise<void> {
    for (const claim of await this.#allClaims()) {
      if (claim.claim_state !== 'active') await this.#releaseDomains(claim);
    }
  }

  async #createClaim(claim: ClaimDocument): Promise<ClaimDocument> {
    const { tables } = this.dependencies;
    for (let attempt = 1; attempt <= CLAIM_ID_ATTEMPTS; attempt += 1) {
      const candidate: ClaimDocument = {
        ...claim,
        claim_id: `c-${randomBytes(4).toString('hex')}`,
      };
      // The uniqueness backstop: a claim_id is never reused, even across restarts.
      const { isSwapped } = await tables.claims.compareAndSwap(
        candidate.claim_id,
        undefined,
        candidate,
      );
      if (isSwapped) return candidate;
    }
    throw new Error(`no free claim_id after ${CLAIM_ID_ATTEMPTS} tries`);
  }

  #allClaims(): Promise<ClaimDocument[]> {
    return readAllDocuments(this.dependencies.tables.claims);
  }

  #forEachDomainRow(visit: (row: DomainClaimDocument) => boolean): Promise<void> {
    return walkTable(this.dependencies.tables.domainClaims, (row) => visit(row.value));
  }
}
