/** Domain errors of consumer tokens; handlers/edge-errors.ts maps them to the contract. */

export class ConsumerAlreadyExistsError extends Error {
  constructor(readonly consumerId: string) {
    super(`consumer ${consumerId} already has a live token; revoke it first`);
    this.name = 'ConsumerAlreadyExistsError';
  }
}

export class ConsumerNotFoundError extends Error {
  constructor(readonly consumerId: string) {
    super(`no consumer ${consumerId}`);
    this.name = 'ConsumerNotFoundError';
  }
}
