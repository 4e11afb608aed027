import express, { type Request, type Response } from 'express';
import { DownloaderClient } from '../../../generated/downloader';
import { SchedulerClient } from '../../../generated/scheduler';
import { schedulerContract } from '../peers/peer-contracts';
import { Registry } from 'prom-client';
import { ContractMetrics } from './contract-metrics';
import { countUnknownAnswerFields } from './unknown-answer-fields';
import { listenOnLoopback } from '../testing/listen-on-loopback';
import { ContractHttpError, ContractTransportError, TooManyRequestsError } from './client-errors';

const token = 'service-token-0123456789';
const fastRetries = { initialBackoffMs: 5, maximumBackoffMs: 20 };

/** A scripted origin: each request gets the next scripted answer (the last one repeats). */
async function startScriptedServer(
  script: Array<(request: Request, response: Response) => void>,
): Promise<{ url: string; requests: Request[]; close: () => Promise<void> }> {
  const requests: Request[] = [];
  const app = express();
  app.use(express.json());
  app.use((request, response) => {
    requests.push(request);
    const answer = script[Math.min(requests.length - 1, script.length - 1)];
    answer(request, response);
  });
  const listening = await listenOnLoopback(app);
  return { url: listening.url, requests, close: listening.close };
}

const lease = {
  lease_id: 'l-0123456789abcdef',
  worker_id: 'w3',
  expires_at: '2026-08-15T07:49:52Z',
  task_list: [],
};
const failWith = (status: number) => (_request: Request, response: Response) => {
  response.status(status).json({ error_code: 'internal_error', message: `status ${status}` });
};

describe('generated client', () => {
  it('sends the bearer token and wire-named query parameters, and keeps unknown answer fields', async () => {
    const server = await startScriptedServer([
      (_request, response) => response.json({ ...lease, shard_hint: 'eu-1' }),
    ]);
    try {
      const client = new SchedulerClient({ baseUrl: server.url, token });
      const answer = await client.leaseTasks({
        worker_id: 'w3',
        task_count: 5,
        lease_ttl_seconds: 60,
      });
      expect(answer).toEqual({ ...lease, shard_hint: 'eu-1' });
      expect(server.requests[0].headers.authorization).toBe(`Bearer ${token}`);
      expect(server.requests[0].url).toBe(
        '/v1/lease?worker_id=w3&task_count=5&lease_ttl_seconds=60',
      );
    } finally {
      await server.close();
    }
  });

  it('counts the answer fields its contract does not know (a newer peer), by path', async () => {
    const task = {
      url: 'http://127.0.0.2/a',
      url_hash: '0123456789abcdef0123456789abcdef',
      domain: '127.0.0.2',
      min_interval_ms: 1000,
      wait_selector: null,
      timeout_ms: 30000,
      priority_rank: 0,
      etag: null,
      last_modified_at: null,
    };
    const server = await startScriptedServer([
      (_request, response) =>
        response.json({ ...lease, shard_hint: 'eu-1', task_list: [{ ...task, fetch_mode: 'x' }] }),
    ]);
    try {
      const registry = new Registry();
      const metrics = new ContractMetrics(registry, 'downloader');
      const client = new SchedulerClient({
        baseUrl: server.url,
        token,
        onAnswer: countUnknownAnswerFields(schedulerContract, metrics),
      });
      const answer = await client.leaseTasks({ worker_id: 'w3' });
      expect(answer.task_list[0]).toMatchObject({ fetch_mode: 'x' });
      const counted = (await metrics.unknownFieldCount.get()).values.map((value) => [
        value.labels.operation,
        value.labels.location,
        value.labels.field,
        value.value,
      ]);
      expect(counted).toEqual(
        expect.arrayContaining([
          ['scheduler.leaseTasks', 'answer', 'shard_hint', 1],
          ['scheduler.leaseTasks', 'answer', 'task_list[].fetch_mode', 1],
        ]),
      );
      expect(counted).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('fills path parameters, URL-encoded', async () => {
    const server = await startScriptedServer([failWith(404)]);
    try {
      const client = new DownloaderClient({ baseUrl: server.url, token });
      await expect(client.getWebPageObject({ object_id: 'a/b' })).rejects.toBeInstanceOf(
        ContractHttpError,
      );
      expect(server.requests[0].url).toBe('/v1/objects/a%2Fb');
    } finally {
      await server.close();
    }
  });

  it('retries a bounded call with backoff, at most 3 tries', async () => {
    const recovering = await startScriptedServer([
      failWith(503),
      failWith(500),
      (_request, response) => response.json(lease),
    ]);
    const failing = await startScriptedServer([failWith(503)]);
    try {
      const retries: number[] = [];
      const options = { token, ...fastRetries, onRetry: () => retries.push(1) };
      await expect(
        new SchedulerClient({ baseUrl: recovering.url, ...options }).leaseTasks({
          worker_id: 'w3',
        }),
      ).resolves.toEqual(lease);
      expect(recovering.requests).toHaveLength(3);

      const error = await new SchedulerClient({ baseUrl: failing.url, ...options })
        .leaseTasks({ worker_id: 'w3' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContractHttpError);
      expect((error as ContractHttpError).status).toBe(503);
      expect(failing.requests).toHaveLength(3);
      expect(retries).toHaveLength(4);
    } finally {
      await recovering.close();
      await failing.close();
    }
  });

  it('does not retry a client error', async () => {
    const server = await startScriptedServer([
      (_request, response) =>
        response.status(400).json({ error_code: 'invalid_request', message: 'query.task_count' }),
    ]);
    try {
      const client = new SchedulerClient({ baseUrl: server.url, token, ...fastRetries });
      await expect(client.leaseTasks({ worker_id: 'w3', task_count: 0 })).rejects.toMatchObject({
        status: 400,
        errorCode: 'invalid_request',
      });
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('surfaces a 429 as TooManyRequestsError with retry_after_seconds, without retrying', async () => {
    const server = await startScriptedServer([
      (_request, response) =>
        response.status(429).set('Retry-After', '7').json({
          error_code: 'domain_rate_limited',
          message: 'slow down',
          retry_after_seconds: 7,
        }),
    ]);
    try {
      const client = new DownloaderClient({ baseUrl: server.url, token, ...fastRetries });
      const error = await client
        .renderPage({ url: 'https://blog.example.com/' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TooManyRequestsError);
      expect((error as TooManyRequestsError).retryAfterSeconds).toBe(7);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('does not retry a 502 that carries a contract error (a definitive render failure)', async () => {
    const server = await startScriptedServer([
      (_request, response) =>
        response.status(502).json({
          error_code: 'render_failed',
          message: 'timeout',
          fail_reason: 'navigation_timeout',
        }),
    ]);
    try {
      const client = new DownloaderClient({ baseUrl: server.url, token, ...fastRetries });
      await expect(client.renderPage({ url: 'https://blog.example.com/' })).rejects.toMatchObject({
        status: 502,
        body: { fail_reason: 'navigation_timeout' },
      });
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('retries POST /v1/report until it succeeds, honouring Retry-After on 429', async () => {
    const answer = {
      lease_id: lease.lease_id,
      is_stale_lease: false,
      accepted_count: 0,
      requeued_count: 0,
    };
    const server = await startScriptedServer([
      failWith(503),
      failWith(500),
      failWith(503),
      // A proxy's 502 (no contract body) is a glitch worth retrying.
      (_request, response) => response.status(502).type('text').send('Bad Gateway'),
      (_request, response) =>
        response
          .status(429)
          .json({ error_code: 'internal_error', message: 'busy', retry_after_seconds: 1 }),
      (_request, response) => response.json(answer),
    ]);
    try {
      const client = new SchedulerClient({ baseUrl: server.url, token, ...fastRetries });
      const started = Date.now();
      await expect(
        client.reportLease({ lease_id: lease.lease_id, worker_id: 'w3', result_list: [] }),
      ).resolves.toEqual(answer);
      expect(server.requests).toHaveLength(6);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    } finally {
      await server.close();
    }
  });

  it('bounds each try by the timeout and stops an until-success loop when aborted', async () => {
    const server = await startScriptedServer([
      (_request, response) => {
        setTimeout(() => response.json(lease), 2000).unref();
      },
    ]);
    try {
      const client = new SchedulerClient({ baseUrl: server.url, token, ...fastRetries });
      const timedOut = await client
        .leaseTasks({ worker_id: 'w3' }, { timeoutMs: 100 })
        .catch((caught: unknown) => caught);
      expect(timedOut).toBeInstanceOf(ContractTransportError);
      expect((timedOut as ContractTransportError).attemptCount).toBe(3);

      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('shutting down')), 400);
      await expect(
        client.reportLease(
          { lease_id: lease.lease_id, worker_id: 'w3', result_list: [] },
          { timeoutMs: 50, signal: controller.signal },
        ),
      ).rejects.toThrow('shutting down');
    } finally {
      await server.close();
    }
  });

  it('reports an unreachable service as a transport error after 3 tries', async () => {
    const server = await startScriptedServer([failWith(500)]);
    const url = server.url;
    await server.close();
    const client = new SchedulerClient({ baseUrl: url, token, ...fastRetries });
    const error = await client.leaseTasks({ worker_id: 'w3' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContractTransportError);
    expect((error as ContractTransportError).attemptCount).toBe(3);
  });
});
