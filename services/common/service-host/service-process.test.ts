import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceName } from '../storage/service-name';
import { SERVICE_NODE_FLAGS, serviceEntryPoint } from '../process/service-entry-point';
import { startServiceProcess, type StartedServiceProcess } from '../testing/service-process';

const token = 'test-service-token-0123456789';

// A test harness sets this in its importer's environment (a benchmark imported one): a process
// started from here must still log the "service listening" line its start waits for.
process.env.LOG_LEVEL = 'silent';

const services: Array<[ServiceName, string]> = [
  ['scheduler', 'Scheduler API'],
  ['downloader', 'Downloader API'],
  ['sampler', 'Sampler API'],
];

describe.each(services)('the %s program', (service) => {
  it('prints its flags for --help and exits 0', async () => {
    const entry = serviceEntryPoint(service);
    const result = spawnSync(entry.command, [...entry.argumentList, '--help'], {
      encoding: 'utf8',
      env: { ...process.env, [`${service.toUpperCase()}_TOKEN`]: '' },
      timeout: 20_000,
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(result.stdout).toContain(`Usage: ${service} [options]`);
    expect(result.stdout).toContain(`(env ${service.toUpperCase()}_PORT; default`);
  }, 30_000);

  it('names a wrong flag value and exits 1', async () => {
    const entry = serviceEntryPoint(service);
    const result = spawnSync(entry.command, [...entry.argumentList, '--port', 'seventy'], {
      encoding: 'utf8',
      env: { ...process.env, [`${service.toUpperCase()}_TOKEN`]: token },
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${service} failed to start: --port / ${service.toUpperCase()}_PORT must be a whole number`,
    );
  }, 30_000);
});

describe('serviceEntryPoint', () => {
  it("puts a caller's Node flags after the service's own, before the program: the caller's win", () => {
    const { argumentList } = serviceEntryPoint('scheduler', undefined, [
      '--max-semi-space-size=32',
    ]);
    const own = argumentList.indexOf('--max-semi-space-size=64');
    const callers = argumentList.indexOf('--max-semi-space-size=32');
    const program = argumentList.findIndex((part) => /main\.(ts|js)$/.test(part));
    expect(own).toBeGreaterThanOrEqual(0);
    expect(callers).toBeGreaterThan(own);
    expect(program).toBeGreaterThan(callers);
  });
});

describe.each(services)('the %s process', (service, title) => {
  let running: StartedServiceProcess;
  let dataDirectory: string;

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), `${service}-data-`));
    running = await startServiceProcess(service, ['--data-dir', dataDirectory], {
      [`${service.toUpperCase()}_TOKEN`]: token,
    });
  }, 30_000);
  afterAll(async () => {
    await running?.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('runs with its Node flags (the scheduler: a larger young generation)', () => {
    const commandLine = readFileSync(`/proc/${running.child.pid}/cmdline`, 'utf8').split('\0');
    const scriptIndex = commandLine.findIndex((part) => /main\.(ts|js)$/.test(part));
    expect(scriptIndex).toBeGreaterThan(0);
    expect(commandLine.slice(0, scriptIndex)).toEqual(
      expect.arrayContaining([...SERVICE_NODE_FLAGS[service]]),
    );
    if (service === 'scheduler') expect(SERVICE_NODE_FLAGS[service]).not.toHaveLength(0);
  });

  it('answers /healthz', async () => {
    const response = await fetch(`${running.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ service_name: service, is_ready: true });
  });

  it('serves Prometheus metrics including the contract counters', async () => {
    await fetch(`${running.url}/v1/no-such-route`);
    const text = await (await fetch(`${running.url}/metrics`)).text();
    expect(text).toContain(`# TYPE ${service}_contract_request_total counter`);
    expect(text).toContain(`${service}_process_cpu_seconds_total`);
  });

  it('serves its API reference page and document', async () => {
    const document = (await (await fetch(`${running.url}/openapi.json`)).json()) as {
      info: { title: string };
    };
    expect(document.info.title).toBe(title);
    const page = await fetch(`${running.url}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui-bundle.js');
    expect((await fetch(`${running.url}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
  });

  it('logs a refused request without its bearer token', async () => {
    const response = await fetch(`${running.url}/v1/operator/nothing-here`, {
      headers: { Authorization: 'Bearer wrong-token-must-not-be-logged' },
    });
    expect(response.status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const requestLines = running.logLines.filter((line) => line.msg === 'request completed');
    expect(requestLines.length).toBeGreaterThan(0);
    expect(JSON.stringify(running.logLines)).not.toContain('wrong-token-must-not-be-logged');
  });

  it('protects its contract endpoints with its own token', async () => {
    const response = await fetch(`${running.url}/v1/operator/nothing-here`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error_code: 'route_not_found' });
  });

  it('answers a request line over 16 KB with 400 and the contract error body, not an empty 431', async () => {
    const response = await fetch(`${running.url}/v1/lease?worker_id=${'w'.repeat(20_000)}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error_code: 'invalid_request',
      message: 'the request line and headers exceed 16 KB',
    });
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
  });

  it('logs structured lines and never the bearer token', () => {
    expect(running.logLines.some((line) => line.service === service)).toBe(true);
    expect(JSON.stringify(running.logLines)).not.toContain(token);
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await running.stop()).toBe(0);
    expect(running.logLines.map((line) => line.msg)).toContain('stopped');
  });
});

describe('service start-up', () => {
  it('refuses to start without a token, saying which variable to set', async () => {
    await expect(
      startServiceProcess('scheduler', [], { SCHEDULER_TOKEN: '' }, 15_000),
    ).rejects.toThrow(/SCHEDULER_TOKEN/);
  }, 20_000);

  it('lets the sampler admit each kind of token only where it belongs', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'sampler-data-'));
    const running = await startServiceProcess('sampler', ['--data-dir', dataDirectory], {
      SAMPLER_TOKEN: token,
    });
    const call = (path: string, bearer: string, body?: unknown) =>
      fetch(`${running.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    try {
      const issued = await call('/v1/operator/consumer-tokens', token, { consumer_id: 'probe' });
      expect(issued.status).toBe(200);
      const { consumer_token: consumerToken } = (await issued.json()) as { consumer_token: string };
      expect((await call('/v1/exported-domains', consumerToken)).status).toBe(200);
      const wrongKind = await call('/v1/operator/domain-claims', consumerToken);
      expect(wrongKind.status).toBe(403);
      expect(await wrongKind.json()).toMatchObject({ error_code: 'wrong_token_kind' });
      expect((await call('/v1/exported-domains', token)).status).toBe(403);
      expect((await call('/v1/exported-domains', `${consumerToken}x`)).status).toBe(401);
    } finally {
      await running.stop();
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  }, 30_000);
});
