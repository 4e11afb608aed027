/*
 * The export boundary's domain errors. They say what is wrong in the sampler's own terms; the one
 * thin layer at the edge (handlers/edge-errors.ts) turns each into the contract's status and
 * error_code.
 */

export class ClaimNotFoundError extends Error {
  constructor(readonly claimId: string) {
    super(`no claim ${claimId}`);
    this.name = 'ClaimNotFoundError';
  }
}

export class ClaimConsumerMismatchError extends Error {
  constructor(readonly claimId: string) {
    super(`claim ${claimId} belongs to another consumer`);
    this.name = 'ClaimConsumerMismatchError';
  }
}

/** A hint that breaks the contract's own rule: undetermined_reason exactly when verdict is unknown. */
export class InvalidHintError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidHintError';
  }
}
