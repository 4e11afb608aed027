import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Registry } from 'prom-client';
import { createSamplerRouter, type SamplerHandlers } from '../../../generated/sampler';
import samplerDocument from '../../../generated/sampler/openapi.json';
import {
  createSchedulerRouter,
  SchedulerClient,
  schedulerOperationIds,
  type LeaseTasksInput,
  type ReportLeaseInput,
  type SchedulerHandlers,
} from '../../../generated/scheduler';
import schedulerDocument from '../../../generated/scheduler/openapi.json';
import { doneResult, link } from '../../scheduler/testing/contract-fixtures';
import { createServiceRequestListener } from '../service-host/create-service-request-listener';
import { urlHash } from '../url';
import { createCapturingLogger } from '../testing/capture-logger';
import { listenOnLoopback } from '../testing/listen-on-loopback';
import type { CallerIdentity, TokenAuthenticator } from './caller-identity';
import { ContractError, notImplemented } from './contract-error';
import { ContractMetrics } from './contract-metrics';
import type { ContractRouterOptions, OperationInput } from './contract-router';

const serviceToken = 'service-token-0123456789';
const consumerToken = 'consumer-token-0123456789';

const authenticate: TokenAuthenticator = async (token) => {
  if (token === serviceToken) return { tokenKind: 'service' };
  if (token === consumerToken) return { tokenKind: 'consumer', consumerId: 'legacy-crawler-1' };
  return null;
};

/** Every scheduler operation answers 501 unless a test overrides it. */
function schedulerHandlers(overrides: Partial<SchedulerHandlers>): SchedulerHandlers {
  const stubs = Object.fromEntries(
    schedulerOperationIds.map((operationId) => [
      operationId,
      async () => {
        throw notImplemented(operationId);
      },
    ]),
  ) as unknown as SchedulerHandlers;
  return { ...stubs, ...overrides };
}

async function startScheduler(
  overrides: Partial<SchedulerHandlers>,
  options: Partial<ContractRouterOptions> = {},
) {
  const registry = new Registry();
  const { logger, lines } = createCapturingLogger();
  const routerOptions: ContractRouterOptions = {
    serviceName: 'scheduler',
    authenticate,
    logger,
    metrics: new ContractMetrics(registry, 'scheduler'),
    shouldValidateResponses: true,
    ...options,
  };
  const app = createServiceRequestListener({
    serviceName: 'scheduler',
    logger,
    registry,
    contractRouter: createSchedulerRouter(schedulerHandlers(overrides), routerOptions),
    apiDocument: schedulerDocument,
    startedAt: '2026-08-15T07:47:52Z',
    isReady: () => true,
  });
  const listening = await listenOnLoopback(app);
  return { ...listening, registry, logLines: lines };
}

const sampleLease = {
  lease_id: 'l-0123456789abcdef',
  worker_id: 'w3',
  expires_at: '2026-08-15T07:49:52Z',
  task_list: [],
};

describe('generated router: authentication', () => {
  let server: Awaited<ReturnType<typeof startScheduler>>;
  beforeAll(async () => {
    server = await startScheduler({ leaseTasks: async () => sampleLease });
  });
  afterAll(() => server.close());

  it('answers 401 missing_token without an Authorization header', async () => {
    const response = await fetch(`${server.url}/v1/lease?worker_id=w3`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error_code: 'missing_token' });
  });

  it('answers 401 invalid_token for an unknown token', async () => {
    const response = await fetch(`${server.url}/v1/lease?worker_id=w3`, {
      headers: { Authorization: 'Bearer not-a-known-token' },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error_code: 'invalid_token' });
  });

  it('answers 403 wrong_token_kind for a consumer token on a service endpoint', async () => {
    const response = await fetch(`${server.url}/v1/lease?worker_id=w3`, {
      headers: { Authorization: `Bearer ${consumerToken}` },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error_code: 'wrong_token_kind' });
  });

  it.each(['Basic dXNlcjpwYXNz', 'Bearer ', 'Bearer two tokens', serviceToken])(
    'answers 401 invalid_token for a malformed Authorization header (%s)',
    async (authorization) => {
      const response = await fetch(`${server.url}/v1/lease?worker_id=w3`, {
        headers: { Authorization: authorization },
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error_code: 'invalid_token' });
    },
  );

  it('checks the token before reading the body', async () => {
    const response = await fetch(`${server.url}/v1/report`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{not json',
    });
    expect(response.status).toBe(401);
  });
});

describe('generated router: consumer-token endpoints', () => {
  it('admits only consumer tokens on the export endpoints (403 for a service token)', async () => {
    const registry = new Registry();
    const { logger } = createCapturingLogger();
    let seenCaller: CallerIdentity | null = null;
    const notUsed = async () => {
      throw notImplemented('not used');
    };
    const handlers: SamplerHandlers = {
      listExportedDomains: async ({ meta }) => {
        seenCaller = meta.caller;
        return { domain_list: [] };
      },
      claimDomains: notUsed,
      submitVerdictHints: notUsed,
      listConsumerTokens: notUsed,
      issueConsumerToken: notUsed,
      revokeConsumerToken: notUsed,
      listDomainClaims: notUsed,
      getSamplingQueue: notUsed,
      submitApiEndpointHints: notUsed,
    };
    const app = createServiceRequestListener({
      serviceName: 'sampler',
      logger,
      registry,
      contractRouter: createSamplerRouter(handlers, {
        serviceName: 'sampler',
        authenticate,
        logger,
        metrics: new ContractMetrics(registry, 'sampler'),
        shouldValidateResponses: true,
      }),
      apiDocument: samplerDocument,
      startedAt: '2026-08-15T07:47:52Z',
      isReady: () => true,
    });
    const server = await listenOnLoopback(app);
    try {
      const asService = await fetch(`${server.url}/v1/exported-domains`, {
        headers: { Authorization: `Bearer ${serviceToken}` },
      });
      expect(asService.status).toBe(403);
      expect(await asService.json()).toMatchObject({ error_code: 'wrong_token_kind' });

      const asConsumer = await fetch(`${server.url}/v1/exported-domains?limit=5`, {
        headers: { Authorization: `Bearer ${consumerToken}` },
      });
      expect(asConsumer.status).toBe(200);
      expect(seenCaller).toEqual({ tokenKind: 'consumer', consumerId: 'legacy-crawler-1' });

      const operatorAsConsumer = await fetch(`${server.url}/v1/operator/domain-claims`, {
        headers: { Authorization: `Bearer ${consumerToken}` },
      });
      expect(operatorAsConsumer.status).toBe(403);
    } finally {
      await server.close();
    }
  });
});

describe('generated router: validation', () => {
  let server: Awaited<ReturnType<typeof startScheduler>>;
  let leaseInputs: LeaseTasksInput[];
  let reportInputs: ReportLeaseInput[];
  const auth = { Authorization: `Bearer ${serviceToken}` };

  /** Handlers that record their inputs and answer as the contract says. */
  const recordingHandlers = (): Partial<SchedulerHandlers> => ({
    leaseTasks: async (input) => {
      leaseInputs.push(input);
      return { ...sampleLease, worker_id: input.query.worker_id };
    },
    reportLease: async (input) => {
      reportInputs.push(input);
      return {
        lease_id: input.body.lease_id,
        is_stale_lease: false,
        accepted_count: input.body.result_list.length,
        requeued_count: 0,
      };
    },
  });

  beforeEach(async () => {
    leaseInputs = [];
    reportInputs = [];
    server = await startScheduler(recordingHandlers());
  });
  afterEach(() => server.close());

  it('coerces query strings to the declared types and applies defaults', async () => {
    const response = await fetch(`${server.url}/v1/lease?worker_id=w3&task_count=7`, {
      headers: auth,
    });
    expect(response.status).toBe(200);
    expect(leaseInputs[0].query).toEqual({
      worker_id: 'w3',
      task_count: 7,
      lease_ttl_seconds: 120,
      wait_ms: 0,
    });
  });

  it.each([
    ['task_count=0', 'query.task_count'],
    ['task_count=501', 'query.task_count'],
    ['lease_ttl_seconds=999999', 'query.lease_ttl_seconds'],
    ['task_count=many', 'query.task_count'],
    // Number() would read these as numbers; a non-finite one slipped past minimum and maximum.
    ['task_count=Infinity', 'query.task_count'],
    ['lease_ttl_seconds=-Infinity', 'query.lease_ttl_seconds'],
    ['lease_ttl_seconds=1e400', 'query.lease_ttl_seconds'],
    ['task_count=1e2', 'query.task_count'],
    ['task_count=0x10', 'query.task_count'],
    ['task_count=%205', 'query.task_count'],
    ['task_count=7&task_count=8', 'query.task_count'],
  ])(
    'answers 400 for %s, naming the parameter, without calling the handler',
    async (query, named) => {
      const response = await fetch(`${server.url}/v1/lease?worker_id=w3&${query}`, {
        headers: auth,
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error_code: string; message: string };
      expect(body.error_code).toBe('invalid_request');
      expect(body.message).toContain(named);
      expect(leaseInputs).toHaveLength(0);
    },
  );

  it('answers 400 for a missing required query parameter', async () => {
    const response = await fetch(`${server.url}/v1/lease`, { headers: auth });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('worker_id');
  });

  it('answers 400 naming the field when the body breaks the schema', async () => {
    const response = await fetch(`${server.url}/v1/report`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ worker_id: 'w3', result_list: [] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error_code: 'invalid_request',
      message: 'body: missing required field lease_id',
    });
    expect(reportInputs).toHaveLength(0);
  });

  it('answers 400 for malformed JSON and for a missing body', async () => {
    const malformed = await fetch(`${server.url}/v1/report`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{"lease_id": ',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error_code: 'invalid_request' });
    const missing = await fetch(`${server.url}/v1/report`, { method: 'POST', headers: auth });
    expect(missing.status).toBe(400);
  });

  it('accepts unknown fields, counts them, logs their names and drops them', async () => {
    const response = await fetch(`${server.url}/v1/report?trace=1`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        lease_id: 'l-0123456789abcdef',
        worker_id: 'w3',
        // contract-gate-ignore-next-line: a drifted name on purpose, to see it counted
        leaseTtlSeconds: 30,
        result_list: [],
      }),
    });
    expect(response.status).toBe(200);
    // Accepted, never handed on: the handler sees the contract's fields alone.
    // (POST /v1/report declares no query parameters, so its typed input has no query to read.)
    expect((reportInputs[0] as unknown as { query: unknown }).query).toEqual({});
    expect(reportInputs[0].body).toEqual({
      lease_id: 'l-0123456789abcdef',
      worker_id: 'w3',
      result_list: [],
    });
    const metrics = await server.registry.getSingleMetricAsString(
      'scheduler_contract_unknown_field_total',
    );
    expect(metrics).toContain('operation="reportLease",location="body",field="leaseTtlSeconds"} 1');
    expect(metrics).toContain('operation="reportLease",location="query",field="trace"} 1');
    expect(server.logLines()).toContainEqual(
      expect.objectContaining({ field: 'leaseTtlSeconds', level: 20 }),
    );
  });

  it('offers the JSON text the body was parsed from when it is exactly the checked body, and not otherwise', async () => {
    const report = { lease_id: 'l-0123456789abcdef', worker_id: 'w3', result_list: [] };
    // Not in the typed inputs: only a forwarder reads it (forwarded-operation.ts).
    const readBodyJsonOf = (index: number) =>
      (reportInputs[index] as unknown as OperationInput).readBodyJson;
    const post = (body: string | Buffer<ArrayBuffer>, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/v1/report`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json', ...headers },
        body,
      });
    // Spaced out: the text handed on is the one received, not the body written out again.
    const received = JSON.stringify(report, null, 2);
    expect((await post(received)).status).toBe(200);
    expect(readBodyJsonOf(0)?.()).toBe(received);
    expect(
      (await post(received, { 'Content-Type': 'Application/JSON; Charset="UTF-8"' })).status,
    ).toBe(200);
    expect(readBodyJsonOf(1)?.()).toBe(received);

    // contract-gate-ignore-next-line: a drifted name on purpose, dropped from the body
    expect((await post(JSON.stringify({ ...report, leaseTtlSeconds: 30 }))).status).toBe(200);
    expect(readBodyJsonOf(2)).toBeUndefined();
    // A byte-order mark, which body-parser drops and JSON.parse would not read: dropped too.
    expect((await post(`\ufeff${received}`)).status).toBe(200);
    expect(reportInputs[3].body).toEqual(report);
    expect(readBodyJsonOf(3)?.()).toBe(received);
    // Another charset and a compressed body are body-parser's to read; it keeps no text.
    const inUtf16 = Buffer.from(received, 'utf16le');
    expect(
      (await post(inUtf16, { 'Content-Type': 'application/json; charset=utf-16le' })).status,
    ).toBe(200);
    expect(reportInputs[4].body).toEqual(report);
    expect(readBodyJsonOf(4)).toBeUndefined();
    expect((await post(gzipSync(received), { 'Content-Encoding': 'gzip' })).status).toBe(200);
    expect(reportInputs[5].body).toEqual(report);
    expect(readBodyJsonOf(5)).toBeUndefined();
    // A byte that is not UTF-8 in a link's anchor text: accepted, replaced as body-parser would,
    // and the text handed on is the text parsed, replacement included.
    const page = { url: 'https://news.example/', url_hash: urlHash('https://news.example/') };
    const withLink = JSON.stringify({
      ...report,
      result_list: [
        doneResult(page, { link_list: [link('https://news.example/a', { anchor_text: 'a~b' })] }),
      ],
    });
    const [before, after] = withLink.split('~');
    const invalidUtf8 = Buffer.concat([
      Buffer.from(before),
      Buffer.from([0xff]),
      Buffer.from(after),
    ]);
    expect((await post(invalidUtf8)).status).toBe(200);
    expect(reportInputs[6].body.result_list[0].link_list?.[0].anchor_text).toBe('a\ufffdb');
    expect(JSON.parse(readBodyJsonOf(6)?.() ?? 'null')).toEqual(reportInputs[6].body);
  });

  it('answers (and logs) a request whose client went away while it was authenticated', async () => {
    await server.close();
    let authenticated!: () => void;
    const isAuthenticating = new Promise<void>((resolve) => (authenticated = resolve));
    server = await startScheduler(recordingHandlers(), {
      authenticate: async (token) => {
        authenticated();
        await new Promise((resolve) => setTimeout(resolve, 200));
        return token === serviceToken ? { tokenKind: 'service' } : null;
      },
    });
    const request = httpRequest(`${server.url}/v1/report`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
    });
    request.once('error', () => undefined);
    request.end(
      JSON.stringify({ lease_id: 'l-0123456789abcdef', worker_id: 'w3', result_list: [] }),
    );
    await isAuthenticating;
    request.destroy();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(reportInputs).toHaveLength(0);
    const lines = server.logLines().filter((line) => line.msg === 'request completed');
    expect(lines.at(-1)).toMatchObject({ res: { status_code: 400 }, operation: 'reportLease' });
  });

  it('reads a body sent in chunks, an empty body, and a body cut short', async () => {
    const report = { lease_id: 'l-0123456789abcdef', worker_id: 'w3', result_list: [] };
    const chunked = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${server.url}/v1/report`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
      });
      request.once('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.once('error', reject);
      const text = JSON.stringify(report);
      request.write(text.slice(0, 10));
      setTimeout(() => request.end(text.slice(10)), 20);
    });
    expect(chunked).toBe(200);
    expect(reportInputs.at(-1)?.body).toEqual(report);

    const empty = await post('');
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error_code: 'invalid_request' });

    const callCount = reportInputs.length;
    await new Promise<void>((resolve) => {
      const request = httpRequest(`${server.url}/v1/report`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json', 'Content-Length': '1000' },
      });
      request.once('error', () => resolve());
      request.write('{"lease_id":');
      setTimeout(() => request.destroy(), 50);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reportInputs.length).toBe(callCount);
    const lines = server.logLines().filter((line) => line.msg === 'request completed');
    expect(lines.at(-1)).toMatchObject({ res: { status_code: 400 }, operation: 'reportLease' });

    function post(body: string) {
      return fetch(`${server.url}/v1/report`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body,
      });
    }
  });

  it('answers 413 payload_too_large above the body limit', async () => {
    const small = await startScheduler({}, { bodyLimitBytes: 1024 });
    try {
      const response = await fetch(`${small.url}/v1/report`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ lease_id: 'l-0123456789abcdef', padding: 'x'.repeat(4096) }),
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ error_code: 'payload_too_large' });
    } finally {
      await small.close();
    }
  });
});

describe('generated router: answers and errors', () => {
  const auth = { Authorization: `Bearer ${serviceToken}` };

  it('turns a ContractError into its status and body, and a fault into 500', async () => {
    const server = await startScheduler({
      leaseTasks: async () => {
        throw new ContractError(409, 'lease_worker_mismatch', 'belongs to w4');
      },
      getFrontierSummary: async () => {
        throw new Error('disk on fire');
      },
    });
    try {
      const conflict = await fetch(`${server.url}/v1/lease?worker_id=w3`, { headers: auth });
      expect(conflict.status).toBe(409);
      expect(await conflict.json()).toEqual({
        error_code: 'lease_worker_mismatch',
        message: 'belongs to w4',
      });
      const fault = await fetch(`${server.url}/v1/operator/frontier-summary`, { headers: auth });
      expect(fault.status).toBe(500);
      const body = (await fault.json()) as { error_code: string; message: string };
      expect(body.error_code).toBe('internal_error');
      expect(body.message).not.toContain('disk on fire');
    } finally {
      await server.close();
    }
  });

  it('validates answers when switched on, and lets them through when off', async () => {
    const wrongAnswer = async () => ({ lease_id: 'not-a-lease-id' }) as never;
    const strict = await startScheduler({ leaseTasks: wrongAnswer });
    const lenient = await startScheduler(
      { leaseTasks: wrongAnswer },
      { shouldValidateResponses: false },
    );
    try {
      const checked = await fetch(`${strict.url}/v1/lease?worker_id=w3`, { headers: auth });
      expect(checked.status).toBe(500);
      expect(((await checked.json()) as { message: string }).message).toContain(
        'violates the contract',
      );
      const unchecked = await fetch(`${lenient.url}/v1/lease?worker_id=w3`, { headers: auth });
      expect(unchecked.status).toBe(200);
    } finally {
      await strict.close();
      await lenient.close();
    }
  });

  it('answers 404 route_not_found and 405 method_not_allowed with the contract body', async () => {
    const server = await startScheduler({});
    try {
      const missing = await fetch(`${server.url}/v1/nowhere`, { headers: auth });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error_code: 'route_not_found' });
      const wrongMethod = await fetch(`${server.url}/v1/lease`, {
        method: 'DELETE',
        headers: auth,
      });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('GET');
      expect(await wrongMethod.json()).toMatchObject({ error_code: 'method_not_allowed' });
    } finally {
      await server.close();
    }
  });

  it('serves a request target in absolute form (through a proxy) or with a fragment as its path and query', async () => {
    const leaseInputs: LeaseTasksInput[] = [];
    const server = await startScheduler({
      leaseTasks: async (input) => {
        leaseInputs.push(input);
        return sampleLease;
      },
    });
    try {
      const { port } = new URL(server.url);
      const statusOf = (path: string) =>
        new Promise<number>((resolve, reject) => {
          const request = httpRequest({ host: '127.0.0.1', port, path, headers: auth });
          request.once('response', (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          });
          request.once('error', reject);
          request.end();
        });
      expect(await statusOf(`http://127.0.0.1:${port}/v1/lease?worker_id=w3`)).toBe(200);
      expect(await statusOf('/v1/lease?worker_id=w3&task_count=5#part')).toBe(200);
      expect(leaseInputs.map((input) => input.query.task_count)).toEqual([50, 5]);
      // The path as written: dot segments are not resolved (Express did not resolve them either).
      expect(await statusOf(`http://127.0.0.1:${port}/v1/x/../lease?worker_id=w3`)).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('never runs a GET operation for a HEAD request (GET /v1/lease hands out leases)', async () => {
    let leaseCallCount = 0;
    const server = await startScheduler({
      leaseTasks: async () => {
        leaseCallCount += 1;
        return sampleLease;
      },
    });
    try {
      const head = await fetch(`${server.url}/v1/lease?worker_id=w3`, {
        method: 'HEAD',
        headers: auth,
      });
      expect(head.status).toBe(405);
      expect(head.headers.get('allow')).toBe('GET');
      expect(leaseCallCount).toBe(0);
      expect((await fetch(`${server.url}/v1/lease?worker_id=w3`, { headers: auth })).status).toBe(
        200,
      );
      expect(leaseCallCount).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('answers a conditional GET /v1/lease in full: no ETag, never 304 for a lease handed out', async () => {
    const server = await startScheduler({ leaseTasks: async () => sampleLease });
    try {
      const first = await fetch(`${server.url}/v1/lease?worker_id=w3`, { headers: auth });
      expect(first.headers.get('etag')).toBeNull();
      const again = await fetch(`${server.url}/v1/lease?worker_id=w3`, {
        headers: { ...auth, 'If-None-Match': '*' },
      });
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ lease_id: sampleLease.lease_id });
    } finally {
      await server.close();
    }
  });

  it.each(['%ZZ', '%', '%ED%A0%80'])(
    'answers 400 invalid_request for a malformed path parameter (%s)',
    async (badSegment) => {
      const server = await startScheduler({});
      try {
        const response = await fetch(`${server.url}/v1/operator/url-tasks/${badSegment}`, {
          headers: auth,
        });
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ error_code: 'invalid_request' });
      } finally {
        await server.close();
      }
    },
  );

  it('serves a scaffolded operation as 501 not_implemented', async () => {
    const server = await startScheduler({});
    try {
      const client = new SchedulerClient({ baseUrl: server.url, token: serviceToken });
      await expect(
        client.submitSeeds({ seed_list: [{ url: 'https://a.example/' }] }),
      ).rejects.toMatchObject({
        status: 501,
        errorCode: 'not_implemented',
      });
    } finally {
      await server.close();
    }
  });
});

describe('service app: what is logged as an error', () => {
  it('writes one request line per contract call, with its request id and operation, at the level its status calls for', async () => {
    const server = await startScheduler({ leaseTasks: async () => sampleLease });
    const auth = { Authorization: `Bearer ${serviceToken}` };
    try {
      const calls: Array<[string, string, Record<string, string>]> = [
        ['call-ok', '/v1/lease?worker_id=w3', auth],
        ['call-anonymous', '/v1/lease?worker_id=w3', {}],
        ['call-405', '/v1/lease', auth],
      ];
      const statuses = [];
      for (const [requestId, path, headers] of calls) {
        const answer = await fetch(`${server.url}${path}`, {
          method: requestId === 'call-405' ? 'DELETE' : 'GET',
          headers: { ...headers, 'X-Request-Id': requestId },
        });
        expect(answer.headers.get('x-request-id')).toBe(requestId);
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([200, 401, 405]);
      const requestLines = server.logLines().filter((line) => line.msg === 'request completed');
      const summary = requestLines.map((line) => ({
        request_id: line.request_id,
        operation: line.operation,
        level: line.level,
        status_code: (line.res as { status_code: number }).status_code,
        url: (line.req as { url: string }).url,
      }));
      const DEBUG = 20;
      const WARN = 40;
      expect(summary).toEqual([
        {
          request_id: 'call-ok',
          operation: 'leaseTasks',
          level: DEBUG,
          status_code: 200,
          url: '/v1/lease?worker_id=w3',
        },
        {
          request_id: 'call-anonymous',
          operation: 'leaseTasks',
          level: WARN,
          status_code: 401,
          url: '/v1/lease?worker_id=w3',
        },
        {
          request_id: 'call-405',
          operation: undefined,
          level: WARN,
          status_code: 405,
          url: '/v1/lease',
        },
      ]);
      for (const line of requestLines) expect(typeof line.responseTime).toBe('number');
    } finally {
      await server.close();
    }
  });

  it('logs expected outcomes (501, 502 render_failed) below error and without a made-up stack; a fault is one error with its own stack', async () => {
    const server = await startScheduler(
      {
        leaseTasks: async () => {
          throw new ContractError(502, 'render_failed', 'the origin answered 503', {
            failReason: 'http_server_error',
          });
        },
        reportLease: async () => {
          throw new Error('a bug in the handler');
        },
      },
      // 502 is not declared on GET /v1/lease: this test looks at levels, not at declarations.
      { shouldValidateResponses: false },
    );
    try {
      const headers = {
        Authorization: `Bearer ${serviceToken}`,
        'Content-Type': 'application/json',
      };
      const answers = await Promise.all([
        fetch(`${server.url}/v1/lease?worker_id=w3`, { headers }),
        fetch(`${server.url}/v1/seeds`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ seed_list: [{ url: 'https://a.example/' }] }),
        }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([502, 501]);
      const fault = await fetch(`${server.url}/v1/report`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ lease_id: 'l-0123456789abcdef', worker_id: 'w3', result_list: [] }),
      });
      expect(fault.status).toBe(500);
      await new Promise((resolve) => setTimeout(resolve, 50));

      const lines = server.logLines();
      const ERROR_LEVEL = 50;
      const errors = lines.filter((line) => (line.level as number) >= ERROR_LEVEL);
      // The fault: logged once with the handler's own stack, and the request line says 500.
      expect(errors.map((line) => line.msg)).toEqual(
        expect.arrayContaining(['unhandled error in handler']),
      );
      const handlerError = errors.find((line) => line.msg === 'unhandled error in handler');
      expect((handlerError?.err as { stack: string }).stack).toContain('a bug in the handler');
      for (const line of errors) {
        expect(JSON.stringify(line)).not.toContain('failed with status code');
      }
      // The expected outcomes: request lines for 501 and 502 below error, none with a stack.
      const requestLines = lines.filter(
        (line) => (line.res as { status_code?: number } | undefined)?.status_code !== undefined,
      );
      const statusLevels = requestLines.map((line) => [
        (line.res as { status_code: number }).status_code,
        (line.level as number) >= ERROR_LEVEL,
        'err' in line,
      ]);
      expect(statusLevels).toEqual(
        expect.arrayContaining([
          [502, false, false],
          [501, false, false],
          [500, true, false],
        ]),
      );
      expect(errors).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
