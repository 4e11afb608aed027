/**
 * Who is calling, as established by the bearer token.
 *
 * Two kinds exist (CONTRACT.md §五): the providing service's fixed service token, shared with its
 * internal callers, and an external consumer's own revocable token (sampler only).
 */
export type TokenKind = 'service' | 'consumer';

export interface CallerIdentity {
  tokenKind: TokenKind;
  /** Set for consumer tokens: the consumer the token was issued to. */
  consumerId?: string;
}

/**
 * Resolves a presented bearer token to a caller, or null when the token is unknown or revoked.
 * Each service supplies one; the sampler's also looks up consumer tokens in its keyspace.
 */
export type TokenAuthenticator = (token: string) => Promise<CallerIdentity | null>;

/** OpenAPI security scheme name → the token kind it admits. */
export const tokenKindBySecurityScheme: Readonly<Record<string, TokenKind>> = {
  serviceToken: 'service',
  consumerToken: 'consumer',
};
