/*
 * What the frontier refuses, said in its own terms. The frontier knows nothing of HTTP: the
 * scheduler's edge (handlers/frontier-error-answers.ts) maps each of these to a status and an
 * error_code of the contract, in one place.
 */

/** Base of every refusal the frontier raises on purpose. */
export abstract class FrontierError extends Error {}

/** No lease with this id is live, and no answer to it is kept (never issued, or long forgotten). */
export class UnknownLeaseError extends FrontierError {
  override readonly name = 'UnknownLeaseError';

  constructor(readonly leaseId: string) {
    super(`no lease ${leaseId} was issued (or its answer expired)`);
  }
}

/** A report names a lease that another worker holds. */
export class ForeignLeaseError extends FrontierError {
  override readonly name = 'ForeignLeaseError';

  constructor(
    readonly leaseId: string,
    readonly leaseWorkerId: string,
    readonly reportWorkerId: string,
  ) {
    super(`lease ${leaseId} belongs to worker ${leaseWorkerId}, not ${reportWorkerId}`);
  }
}

/** A result breaks the fetch_status table (CONTRACT.md §三); nothing of its report was applied. */
export class FetchStatusTableError extends FrontierError {
  override readonly name = 'FetchStatusTableError';

  constructor(
    readonly resultIndex: number,
    readonly urlHash: string,
    readonly problem: string,
  ) {
    super(
      `result_list[${resultIndex}] (${urlHash}): ${problem}; nothing of this report was applied`,
    );
  }
}

/** A result answers no task of its lease, or a second time; nothing of its report was applied. */
export class ResultOutsideLeaseError extends FrontierError {
  override readonly name = 'ResultOutsideLeaseError';

  constructor(
    readonly resultIndex: number,
    problem: string,
  ) {
    super(`result_list[${resultIndex}]: ${problem}; nothing of this report was applied`);
  }
}

/** A rule says what its schema cannot (verdict and reason disagree, a host that is not one). */
export class IncoherentRuleError extends FrontierError {
  override readonly name = 'IncoherentRuleError';

  constructor(
    readonly ruleIndex: number,
    problem: string,
  ) {
    super(`rule_list[${ruleIndex}]: ${problem}`);
  }
}

/**
 * A write to storage failed earlier: memory may be ahead of storage, so the frontier refuses every
 * mutation until the process restarts and rebuilds it from storage.
 */
export class FrontierUnavailableError extends FrontierError {
  override readonly name = 'FrontierUnavailableError';

  constructor() {
    super(
      'the scheduler could not write to its storage; restart it (the frontier is rebuilt from storage)',
    );
  }
}

/** The frontier is stopping and takes no more mutations. */
export class FrontierStoppingError extends FrontierError {
  override readonly name = 'FrontierStoppingError';

  constructor() {
    super('the scheduler is shutting down');
  }
}
