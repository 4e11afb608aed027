/**
 * The completion of many lmdb-js writes, awaited as one. lmdb-js hands every unconditional write of
 * one transaction the same promise, so thousands of writes queued together hold one or two
 * distinct promises: collecting only those keeps Promise.all from allocating a reaction per write
 * (awaiting each write's promise was ~4 % of everything the scheduler allocated at 1M URLs, nearly
 * all of it in checkpoints).
 */
export class LmdbWriteCompletions {
  readonly #distinct: Array<PromiseLike<unknown>> = [];

  /** A write's promise (or nothing, for a write that was not needed). */
  add(written: PromiseLike<unknown> | undefined): void {
    if (written !== undefined && written !== this.#distinct[this.#distinct.length - 1]) {
      this.#distinct.push(written);
    }
  }

  /** Resolves once every write added so far has completed; rejects if any failed. */
  async settled(): Promise<void> {
    await Promise.all(this.#distinct);
  }
}
