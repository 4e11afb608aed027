import type {
  CallerIdentity,
  TokenAuthenticator,
} from '../../common/contract-runtime/caller-identity';
import { createServiceTokenAuthenticator } from '../../common/service-host/service-token-authenticator';

/**
 * The sampler admits two kinds of token (CONTRACT.md §五): its own service token, and external
 * consumers' tokens, looked up in storage on every request. Which kind an operation accepts is
 * the generated router's business: a consumer token on an operator endpoint, or the service token
 * on an export endpoint, is a valid token of the wrong kind (403 `wrong_token_kind`).
 */
export function createSamplerAuthenticator(
  serviceToken: string,
  authenticateConsumer: (token: string) => Promise<CallerIdentity | null>,
): TokenAuthenticator {
  const isServiceToken = createServiceTokenAuthenticator(serviceToken);
  return async (token) => (await isServiceToken(token)) ?? authenticateConsumer(token);
}
