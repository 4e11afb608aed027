/**
 * Serializes the sampler's state transitions inside this process: starting or finishing a
 * sampling, taking a claim, applying a hint, expiring or revoking claims, clearing an outbox row.
 *
 * The two promises of the export boundary — a claimed domain gets no request from the sampler,
 * and a claim never takes a domain being sampled — are checks across two tables
 * (`domain_claim_task`, `domain_sample_task`) plus the in-memory set of domains in progress. The
 * storage layer has compare-and-swap per key but no transaction across keys (TiKV has none), so
 * the check and the write run one at a time here. It is also why one sampler process runs per
 * keyspace (README).
 */
export class StateLock {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work);
    // The next transition waits for this one whatever its outcome; the caller sees the error.
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
