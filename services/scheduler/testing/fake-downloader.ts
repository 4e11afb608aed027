import express from 'express';
import {
  createDownloaderRouter,
  downloaderOperationIds,
  type DownloaderHandlers,
} from '../../../generated/downloader';
import { fakeRouterOptions, notImplementedHandlers } from '../../common/testing/fake-peer';
import { listenOnLoopback } from '../../common/testing/listen-on-loopback';
import type { ProbeRequest, ProbeResponse } from '../health/domain-prober';

export const FAKE_DOWNLOADER_TOKEN = 'fake-downloader-token-0123456789';

export interface FakeDownloader {
  url: string;
  /** Every probe request received, in order. */
  probes: ProbeRequest[];
  /** How the next probes are answered (set by the test). */
  answer: (request: ProbeRequest) => Omit<ProbeResponse, 'url' | 'elapsed_ms' | 'probed_at'>;
  close(): Promise<void>;
}

/**
 * The downloader's POST /v1/probe edge as the contract defines it (the generated downloader router
 * with its auth and validation), answered by the test. The real downloader is a separate service;
 * this stands in for it on loopback so the scheduler's prober is tested over real HTTP.
 */
export async function startFakeDownloader(): Promise<FakeDownloader> {
  const fake: Omit<FakeDownloader, 'url' | 'close'> = {
    probes: [],
    answer: () => ({ has_reached_origin: true, http_status: 200, health_signal: null }),
  };
  const handlers: DownloaderHandlers = {
    ...notImplementedHandlers<DownloaderHandlers>(downloaderOperationIds),
    probeUrl: async ({ body }) => {
      fake.probes.push(body);
      return {
        url: body.url,
        elapsed_ms: 5,
        probed_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        ...fake.answer(body),
      };
    },
  };
  const app = express();
  app.use(createDownloaderRouter(handlers, fakeRouterOptions('downloader', FAKE_DOWNLOADER_TOKEN)));
  const listening = await listenOnLoopback(app);
  return Object.assign(fake, { url: listening.url, close: listening.close });
}
