import express from 'express';
import {
  createSamplerRouter,
  samplerOperationIds,
  type components,
  type SamplerHandlers,
} from '../../../generated/sampler';
import { sendErrorBody } from '../../common/contract-runtime/error-answer';
import { fakeRouterOptions, notImplementedHandlers } from '../../common/testing/fake-peer';
import { listenOnLoopback } from '../../common/testing/listen-on-loopback';

export type ApiEndpointHint = components['schemas']['ApiEndpointHint'];

export const FAKE_SAMPLER_TOKEN = 'fake-sampler-token-0123456789abcd';

export interface FakeSampler {
  url: string;
  /** Every hint received (v2), in arrival order. */
  readonly hints: ApiEndpointHint[];
  /** POST /v1/api-endpoint-hints calls received, answered or not. */
  hintCallCount: number;
  close(): Promise<void>;
}

/**
 * The sampler's POST /v1/api-endpoint-hints as the contract defines it (the generated router:
 * auth, validation, error bodies), recording every hint — or, with `contractVersion` 'v1', a
 * sampler that predates the route: 404 route_not_found, as the service host answers it.
 */
export async function startFakeSampler(contractVersion: 'v1' | 'v2' = 'v2'): Promise<FakeSampler> {
  const hints: ApiEndpointHint[] = [];
  const seen = new Set<string>();
  const fake: FakeSampler = { url: '', hints, hintCallCount: 0, close: async () => undefined };
  const unused = notImplementedHandlers<SamplerHandlers>(samplerOperationIds);
  const handlers: SamplerHandlers = {
    ...unused,
    submitApiEndpointHints: async ({ body }) => {
      let duplicateCount = 0;
      for (const hint of body.hint_list) {
        const key = `${hint.domain} ${hint.endpoint_url}`;
        if (seen.has(key)) duplicateCount += 1;
        seen.add(key);
        hints.push(hint);
      }
      return {
        accepted_count: body.hint_list.length - duplicateCount,
        duplicate_count: duplicateCount,
      };
    },
  };
  const app = express();
  app.use('/v1/api-endpoint-hints', (request, response, next) => {
    fake.hintCallCount += 1;
    if (contractVersion === 'v2') return next();
    sendErrorBody(response, 404, {
      error_code: 'route_not_found',
      message: `no route ${request.method} /v1/api-endpoint-hints`,
    });
  });
  app.use(createSamplerRouter(handlers, fakeRouterOptions('sampler', FAKE_SAMPLER_TOKEN)));
  const listening = await listenOnLoopback(app);
  fake.url = listening.url;
  fake.close = () => listening.close();
  return fake;
}
