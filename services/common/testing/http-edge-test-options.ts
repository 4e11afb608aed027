import pino from 'pino';
import { Registry } from 'prom-client';
import type { HttpEdgeOptions } from '../service-host/http-edge';
import type { HttpEdgeThreadData } from '../service-host/http-edge-protocol';

export const HTTP_EDGE_TEST_TOKEN = 'edge-test-token-0123456789';

/**
 * An HTTP thread's options for a test: the scheduler's name, `surfaceModule` on an ephemeral
 * loopback port, silent logs, ready, no handlers and failures ignored — unless `options` says
 * otherwise.
 */
export function httpEdgeTestOptions(
  data: Partial<HttpEdgeThreadData> & Pick<HttpEdgeThreadData, 'surfaceModule'>,
  options: Partial<Omit<HttpEdgeOptions, 'data'>> = {},
): HttpEdgeOptions {
  return {
    data: {
      serviceName: 'scheduler',
      host: '127.0.0.1',
      port: 0,
      token: HTTP_EDGE_TEST_TOKEN,
      shouldValidateResponses: true,
      logLevel: 'silent',
      startedAt: '2026-12-06T00:00:00Z',
      ...data,
    },
    invokers: {},
    logger: pino({ level: 'silent' }),
    registry: new Registry(),
    isReady: () => true,
    onFailure: () => undefined,
    ...options,
  };
}
