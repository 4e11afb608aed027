import { FrontierUnavailableError } from './frontier-errors';
import type { LeaseResultDocument } from './frontier-documents';
import type { FrontierTables } from './frontier-tables';
import type { WriteBatch } from './write-batch';

/** An answer to a lease's report as kept, and when it is durable. */
export interface KnownAnswer {
  document: LeaseResultDocument;
  /** Resolves once the answer is durable (at once for one read from storage). */
  durable: Promise<void>;
}

/**
 * The answers to reports (`lease_result`, kept `ttlSeconds` for repeats): the idempotency record of
 * seed 002's method. An answer is staged in the same batch as the work it answers for — the results
 * applied, or the lease reclaimed — so it exists exactly when that work does; until the batch is
 * durable it is found here, and a repeat is answered only once it is durable.
 */
export class LeaseAnswers {
  readonly #pending = new Map<string, KnownAnswer>();

  constructor(
    private readonly tables: FrontierTables,
    private readonly ttlSeconds: number,
  ) {}

  stage(batch: WriteBatch, document: LeaseResultDocument): KnownAnswer {
    let settle!: () => void;
    let refuse!: (error: Error) => void;
    const durable = new Promise<void>((resolve, reject) => {
      settle = resolve;
      refuse = reject;
    });
    // Nobody may be waiting; a refusal is reported to the mutation that staged it.
    durable.catch(() => undefined);
    const known: KnownAnswer = { document, durable };
    batch.put(this.tables.leaseResults, document.lease_id, document, 'answers', this.ttlSeconds);
    this.#pending.set(document.lease_id, known);
    batch.afterDurable(() => {
      if (this.#pending.get(document.lease_id) === known) this.#pending.delete(document.lease_id);
      settle();
    });
    batch.onFailure(() => refuse(new FrontierUnavailableError()));
    return known;
  }

  /** The answer to `leaseId`: a pending one first, else the stored one. */
  async find(leaseId: string): Promise<KnownAnswer | undefined> {
    const pending = this.#pending.get(leaseId);
    if (pending !== undefined) return pending;
    const stored = await this.tables.leaseResults.get(leaseId);
    return stored === undefined ? undefined : { document: stored, durable: Promise.resolve() };
  }
}
