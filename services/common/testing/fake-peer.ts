import pino from 'pino';
import { Registry } from 'prom-client';
import { notImplemented } from '../contract-runtime/contract-error';
import { ContractMetrics } from '../contract-runtime/contract-metrics';
import { createServiceTokenAuthenticator } from '../service-host/service-token-authenticator';

/**
 * Handlers for every operation of a contract that answer 501: a fake peer plays the few it needs
 * and spreads its own over these (the contract grows; the fake need not).
 */
export function notImplementedHandlers<Handlers>(operationIds: readonly string[]): Handlers {
  return Object.fromEntries(
    operationIds.map((operationId) => [
      operationId,
      async (): Promise<never> => {
        throw notImplemented(operationId);
      },
    ]),
  ) as unknown as Handlers;
}

/** A fake peer's generated-router options: its token, silent, answers validated. */
export function fakeRouterOptions(serviceName: string, token: string) {
  return {
    serviceName,
    authenticate: createServiceTokenAuthenticator(token),
    logger: pino({ level: 'silent' }),
    metrics: new ContractMetrics(new Registry(), serviceName),
    shouldValidateResponses: true,
  };
}
