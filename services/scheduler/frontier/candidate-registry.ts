import type { DomainCandidateDocument } from './frontier-documents';
import type { FrontierTables } from './frontier-tables';
import { msOfTimeText, timeTextOf } from './time-text';
import type { DomainCandidate } from './wire-types';
import type { WriteBatch } from './write-batch';

/** CONTRACT.md §三: "Up to 10 of those URLs, for sampling." */
const SAMPLE_URL_COUNT = 10;

/**
 * Domains seen in seeds or link lists without a rule (`domain_candidate_task`), served oldest first
 * on GET /v1/domain-candidates so the sampler can decide them. The in-memory map mirrors the rows'
 * existence and URL counts; its insertion order is first_seen_at order (rebuilt sorted at start-up),
 * so listing never sorts or scans the table. Rows staged but not yet durable are read from memory.
 */
export class CandidateRegistry {
  readonly #urlCounts = new Map<string, number>();
  /** Rows staged but not yet durable; null: a staged deletion. */
  readonly #pendingRows = new Map<string, DomainCandidateDocument | null>();

  constructor(private readonly tables: FrontierTables) {}

  waitingUrlCount(domain: string): number {
    return this.#urlCounts.get(domain) ?? 0;
  }

  has(domain: string): boolean {
    return this.#urlCounts.has(domain);
  }

  /** Start-up: the table's rows, in any order. */
  load(rows: readonly DomainCandidateDocument[]): void {
    const ordered = [...rows].sort(
      (left, right) => msOfTimeText(left.first_seen_at) - msOfTimeText(right.first_seen_at),
    );
    for (const row of ordered) this.#urlCounts.set(row.domain, row.url_count);
  }

  /** Stages the rows of domains whose URLs now wait for their rule. */
  async stageWaiting(
    batch: WriteBatch,
    urlsByDomain: ReadonlyMap<string, string[]>,
    nowMs: number,
  ): Promise<void> {
    if (urlsByDomain.size === 0) return;
    const domains = [...urlsByDomain.keys()];
    const existing = await this.#read(domains);
    const rows = domains.map((domain, index): DomainCandidateDocument => {
      const urls = urlsByDomain.get(domain) ?? [];
      const row = existing[index] ?? {
        domain,
        first_seen_at: timeTextOf(nowMs),
        url_count: 0,
        sample_url_list: [],
      };
      const room = SAMPLE_URL_COUNT - row.sample_url_list.length;
      return {
        ...row,
        url_count: row.url_count + urls.length,
        sample_url_list:
          room > 0 ? [...row.sample_url_list, ...urls.slice(0, room)] : row.sample_url_list,
      };
    });
    for (const row of rows) {
      // A pointer: a count ahead of its URLs is harmless; URLs without a row would not be listed.
      batch.put(this.tables.domainCandidates, row.domain, row, 'pointers');
      this.#stage(batch, row.domain, row);
      this.#urlCounts.set(row.domain, row.url_count);
    }
  }

  /** The domain got a rule and its waiting URLs were moved on. */
  stageRemoval(batch: WriteBatch, domain: string): void {
    batch.delete(this.tables.domainCandidates, domain);
    this.#stage(batch, domain, null);
    this.#urlCounts.delete(domain);
  }

  /** Oldest first; skips domains whose rule arrived but whose URLs are still being moved. */
  async list(limit: number, hasRule: (domain: string) => boolean): Promise<DomainCandidate[]> {
    const domains: string[] = [];
    for (const domain of this.#urlCounts.keys()) {
      if (domains.length >= limit) break;
      if (!hasRule(domain)) domains.push(domain);
    }
    const rows = await this.#read(domains);
    return rows
      .filter((row): row is DomainCandidateDocument => row !== undefined)
      .map((row) => ({
        domain: row.domain,
        first_seen_at: row.first_seen_at,
        url_count: row.url_count,
        sample_url_list: row.sample_url_list,
      }));
  }

  domains(): IterableIterator<string> {
    return this.#urlCounts.keys();
  }

  get size(): number {
    return this.#urlCounts.size;
  }

  async #read(domains: string[]): Promise<Array<DomainCandidateDocument | undefined>> {
    const stored = domains.length === 0 ? [] : await this.tables.domainCandidates.getMany(domains);
    return stored.map((row, index) => {
      const pending = this.#pendingRows.get(domains[index]);
      return pending === undefined ? row : (pending ?? undefined);
    });
  }

  #stage(batch: WriteBatch, domain: string, row: DomainCandidateDocument | null): void {
    this.#pendingRows.set(domain, row);
    batch.afterDurable(() => {
      if (this.#pendingRows.get(domain) === row) this.#pendingRows.delete(domain);
    });
  }
}
