import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { httpEdgeTestOptions } from '../testing/http-edge-test-options';
import { startHttpEdge, type HttpEdgeOptions } from './http-edge';
import type { ServiceListener } from './service-listener';

const FIXTURES = join(__dirname, 'fixtures');

/** An HTTP thread on an ephemeral loopback port with the scheduler's surface (or a fixture's). */
function edgeOptions(overrides: Partial<HttpEdgeOptions['data']> = {}) {
  const failures: Error[] = [];
  let isReady = true;
  const options = httpEdgeTestOptions(
    { surfaceModule: join(FIXTURES, 'exiting-edge-surface'), ...overrides },
    { isReady: () => isReady, onFailure: (error) => failures.push(error) },
  );
  return { options, failures, setReady: (ready: boolean) => (isReady = ready) };
}

describe('the HTTP thread (startHttpEdge)', () => {
  let listener: ServiceListener | undefined;
  afterEach(async () => {
    await listener?.close();
    listener = undefined;
  });

  it("answers /healthz with the main thread's readiness, asked on every call", async () => {
    const edge = edgeOptions();
    listener = await startHttpEdge(edge.options);
    expect((await fetch(`${listener.url}/healthz`)).status).toBe(200);
    edge.setReady(false);
    const answer = await fetch(`${listener.url}/healthz`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ is_ready: false });
  });

  it('fails to start with the error of a surface that cannot be loaded', async () => {
    const edge = edgeOptions({ surfaceModule: join(FIXTURES, 'failing-edge-surface') });
    await expect(startHttpEdge(edge.options)).rejects.toThrow('the surface could not be loaded');
  });

  it('fails to start on a port in use, saying so', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
    try {
      const port = (taken.address() as { port: number }).port;
      const edge = edgeOptions({ port });
      await expect(startHttpEdge(edge.options)).rejects.toThrow(
        `port ${port} on 127.0.0.1 is already in use`,
      );
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  /** The failures reported after `path` ended the thread (waited for, bounded). */
  async function failuresAfter(path: string): Promise<string[]> {
    const dying = edgeOptions();
    const dyingListener = await startHttpEdge(dying.options);
    await fetch(`${dyingListener.url}${path}`, { signal: AbortSignal.timeout(2_000) }).catch(
      () => undefined,
    );
    const deadline = Date.now() + 5_000;
    while (dying.failures.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // An 'exit' may follow an 'error': give it the time to be (wrongly) reported too.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await dyingListener.close().catch(() => undefined);
    return dying.failures.map((error) => error.message);
  }

  it('reports a thread that dies while serving, once, and not one closed on purpose', async () => {
    expect(await failuresAfter('/test-exit')).toEqual(['the HTTP thread exited with code 3']);
    expect(await failuresAfter('/test-throw')).toEqual(['thrown on the HTTP thread']);

    const closing = edgeOptions();
    await (await startHttpEdge(closing.options)).close();
    expect(closing.failures).toEqual([]);
  });
});
