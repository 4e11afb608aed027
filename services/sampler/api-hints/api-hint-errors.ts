/** A hint batch the contract's rules refuse (a URL off its domain, another origin): nothing is stored. */
export class InvalidApiEndpointHintError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidApiEndpointHintError';
  }
}
