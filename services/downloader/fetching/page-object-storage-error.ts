/**
 * The fetch happened but its page object could not be stored (a storage fault, ours — not the
 * caller's). Entry B answers 503 (retry later); the lease loop leaves the task out of the report,
 * so the scheduler re-queues it.
 */
export class PageObjectStorageError extends Error {
  constructor(
    readonly url: string,
    options?: ErrorOptions,
  ) {
    super(`the page object of ${url} could not be stored`, options);
    this.name = 'PageObjectStorageError';
  }
}
