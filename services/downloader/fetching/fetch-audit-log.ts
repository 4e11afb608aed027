import type { Logger } from 'pino';
import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import { primaryKey } from '../../common/storage/primary-key';
import { urlHash } from '../../common/url/url-hash';
import type { EntryName } from '../rate-limit/rate-limit-vocabulary';
import { formatContractTime } from '../rendering/contract-time';
import type { FailReason, RefusalReason, RenderOutcome } from '../rendering/render-outcome';

type FetchStatus = 'done' | 'empty' | 'not_modified' | 'failed';

/** One request that left for an origin. */
interface FetchAuditEntry {
  entry_name: EntryName;
  is_rendered: boolean;
  /** done / empty / not_modified / failed (a refused redirect is failed with a refusal_reason). */
  fetch_status: FetchStatus;
  http_status: number | null;
  fail_reason: FailReason | null;
  refusal_reason: RefusalReason | null;
  /** The stored page object, when one was stored. */
  object_id: string | null;
  elapsed_ms: number;
}

/**
 * `downloader:fetch_audit_record:{domain}/{fetched_at}/{url_hash}` — append-only: what was fetched
 * from each domain, when, by which entry, with what result. Two fetches of one URL within the same
 * second share the key, so a row holds a list that only ever grows.
 */
export interface FetchAuditRecord {
  domain: string;
  url: string;
  url_hash: string;
  fetched_at: string;
  fetch_list: FetchAuditEntry[];
}

export interface FetchAuditFacts {
  readonly domain: string;
  readonly url: string;
  readonly entryName: EntryName;
  readonly isRendered: boolean;
  readonly dispatchedAtMs: number;
  readonly outcome: RenderOutcome;
  readonly objectId: string | null;
}

function entryOf(facts: FetchAuditFacts): FetchAuditEntry {
  const { outcome } = facts;
  const base = {
    entry_name: facts.entryName,
    is_rendered: facts.isRendered,
    object_id: facts.objectId,
    elapsed_ms: Math.max(0, Date.now() - facts.dispatchedAtMs),
  };
  switch (outcome.kind) {
    case 'page':
      return {
        ...base,
        fetch_status: outcome.page.fetch_status,
        http_status: outcome.page.http_status,
        fail_reason: null,
        refusal_reason: null,
      };
    case 'not_modified':
      return {
        ...base,
        fetch_status: 'not_modified',
        http_status: 304,
        fail_reason: null,
        refusal_reason: null,
      };
    case 'failed':
      return {
        ...base,
        fetch_status: 'failed',
        http_status: outcome.httpStatus ?? null,
        fail_reason: outcome.failReason,
        refusal_reason: null,
      };
    case 'refused':
      return {
        ...base,
        fetch_status: 'failed',
        http_status: null,
        fail_reason: null,
        refusal_reason: outcome.refusalReason,
      };
  }
}

const DAY_SECONDS = 86_400;

export class FetchAuditLog {
  /** Writes issued and not yet settled; drain() waits for them. */
  readonly #pending = new Set<Promise<void>>();

  constructor(
    private readonly table: KeyspaceTable<FetchAuditRecord>,
    private readonly retentionDays: number,
    private readonly logger: Logger,
  ) {}

  /**
   * Records a fetch in the background. Nothing waits for the row: a lost audit row is logged,
   * never the fetch's failure, so an answer that waited for its commit bought nothing — and that
   * wait (a read-modify-write transaction after the page object's own commit) held every entry B
   * render ~9 ms on average, 26 ms at p90, between the page's release and the caller's next
   * request (`npm run bench:render -- --contenders service`, 2026-12-04, 2 cores).
   */
  record(facts: FetchAuditFacts): void {
    const write = this.#write(facts).finally(() => this.#pending.delete(write));
    this.#pending.add(write);
  }

  /** Waits for every record issued so far (the service's stop, before storage closes). */
  async drain(): Promise<void> {
    await Promise.all(this.#pending);
  }

  async #write(facts: FetchAuditFacts): Promise<void> {
    const fetchedAt = formatContractTime(new Date(facts.dispatchedAtMs));
    const hash = urlHash(facts.url);
    const entry = entryOf(facts);
    try {
      await this.table.update(
        primaryKey(facts.domain, fetchedAt, hash),
        (current) => ({
          domain: facts.domain,
          url: facts.url,
          url_hash: hash,
          fetched_at: fetchedAt,
          fetch_list: [...(current?.fetch_list ?? []), entry],
        }),
        { ttlSeconds: this.retentionDays * DAY_SECONDS },
      );
    } catch (error) {
      this.logger.warn({ err: error, url: facts.url }, 'fetch audit record could not be written');
    }
  }
}
