import { createServer, request as httpRequest, Server } from 'node:http';
import { connect, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { DestinationPolicy } from './destination-policy';
import { DestinationResolver } from './destination-resolver';
import { EgressProxy } from './egress-proxy';
import {
  ConnectionCountingListener,
  refuseNameLookup,
  startConnectionCountingListener,
} from './egress-test-support';

interface ProxiedResult {
  status?: number;
  body?: string;
  headers?: Record<string, string | string[] | undefined>;
  error?: string;
}

describe('EgressProxy', () => {
  let origin: Server;
  let originPort: number;
  let forbidden: ConnectionCountingListener;
  let proxy: EgressProxy;
  let proxyPort: number;

  beforeAll(async () => {
    forbidden = await startConnectionCountingListener('127.0.0.9');
    origin = createServer((request, response) => {
      if (request.url === '/big') {
        response.end(Buffer.alloc(10_000, 97));
        return;
      }
      response.setHeader('x-seen-host', request.headers.host ?? '');
      response.setHeader('x-seen-proxy-connection', String(request.headers['proxy-connection']));
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.end(`hello ${request.method} ${request.url}`);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.2', () => resolve()));
    originPort = (origin.address() as AddressInfo).port;
    proxy = new EgressProxy({
      resolver: new DestinationResolver({
        policy: new DestinationPolicy({ allowedRanges: ['127.0.0.2/32'] }),
        lookup: refuseNameLookup,
      }),
      maxResponseBytes: 4096,
    });
    await proxy.start();
    proxyPort = Number(new URL(proxy.proxyUrl).port);
  });

  afterAll(async () => {
    await proxy.stop();
    origin.closeAllConnections();
    await new Promise<void>((resolve) => origin.close(() => resolve()));
    await forbidden.close();
  });

  function viaProxy(absoluteUrl: string): Promise<ProxiedResult> {
    return new Promise((resolve) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port: proxyPort,
        path: absoluteUrl,
        headers: { host: new URL(absoluteUrl).host, 'proxy-connection': 'keep-alive' },
        agent: false,
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode, body, headers: response.headers }),
        );
        response.on('error', (error) =>
          resolve({ status: response.statusCode, error: error.message }),
        );
      });
      request.on('error', (error) => resolve({ error: error.message }));
      request.end();
    });
  }

  /** Sends CONNECT and answers with the proxy's status line plus the connected socket. */
  function connectVia(
    authority: string,
    throughPort = proxyPort,
  ): Promise<{ statusLine: string; socket: Socket }> {
    return new Promise((resolve, reject) => {
      const socket = connect(throughPort, '127.0.0.1', () => {
        socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
      });
      socket.once('data', (chunk: Buffer) =>
        resolve({ statusLine: chunk.toString().split('\r\n')[0], socket }),
      );
      socket.once('error', reject);
    });
  }

  test('forwards an allowed plain-HTTP request with end-to-end headers only', async () => {
    const result = await viaProxy(`http://127.0.0.2:${originPort}/page?q=1`);
    expect(result.status).toBe(200);
    expect(result.body).toBe('hello GET /page?q=1');
    expect(result.headers?.['x-seen-host']).toBe(`127.0.0.2:${originPort}`);
    expect(result.headers?.['x-seen-proxy-connection']).toBe('undefined');
    expect(result.headers?.['set-cookie']).toEqual(['a=1', 'b=2']);
  });

  test('drops a refused plain-HTTP request without contacting it and remembers why', async () => {
    const startedAt = Date.now();
    const result = await viaProxy(`http://127.0.0.9:${forbidden.port}/secret`);
    expect(result.status).toBeUndefined();
    expect(result.error).toBeDefined();
    expect(forbidden.connectionCount()).toBe(0);
    expect(proxy.failures.latest('127.0.0.9', forbidden.port, startedAt)?.kind).toBe(
      'destination_refused',
    );
  });

  test('answers 403 to a refused CONNECT without contacting it', async () => {
    const startedAt = Date.now();
    const { statusLine, socket } = await connectVia(`127.0.0.9:${forbidden.port}`);
    socket.destroy();
    expect(statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(forbidden.connectionCount()).toBe(0);
    expect(proxy.failures.latest('127.0.0.9', forbidden.port, startedAt)?.kind).toBe(
      'destination_refused',
    );
  });

  test('tunnels an allowed CONNECT', async () => {
    const { statusLine, socket } = await connectVia(`127.0.0.2:${originPort}`);
    expect(statusLine).toBe('HTTP/1.1 200 Connection Established');
    const reply = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('hello GET /tunnelled')) resolve(text);
      });
      socket.write(`GET /tunnelled HTTP/1.1\r\nHost: 127.0.0.2\r\nConnection: close\r\n\r\n`);
    });
    socket.destroy();
    expect(reply).toMatch(/^HTTP\/1.1 200 OK/);
  });

  test('answers 502 when the allowed origin cannot be reached and records connection_failed', async () => {
    const closed = await startConnectionCountingListener('127.0.0.2');
    await closed.close();
    const startedAt = Date.now();
    const { statusLine, socket } = await connectVia(`127.0.0.2:${closed.port}`);
    socket.destroy();
    expect(statusLine).toBe('HTTP/1.1 502 Bad Gateway');
    expect(proxy.failures.latest('127.0.0.2', closed.port, startedAt)?.kind).toBe(
      'connection_failed',
    );
  });

  test('cuts a response larger than the bound and records content_too_large', async () => {
    const startedAt = Date.now();
    const result = await viaProxy(`http://127.0.0.2:${originPort}/big`);
    expect(result.body?.length ?? 0).toBeLessThan(10_000);
    expect(proxy.failures.latest('127.0.0.2', originPort, startedAt)?.kind).toBe(
      'content_too_large',
    );
  });

  test('refuses names it cannot resolve (no DNS in tests)', async () => {
    const startedAt = Date.now();
    await viaProxy('http://unresolvable.test/');
    expect(proxy.failures.latest('unresolvable.test', 80, startedAt)?.kind).toBe(
      'dns_resolution_failed',
    );
    expect(proxy.counters.refusedCount).toBeGreaterThanOrEqual(2);
  });

  test('survives a browser that resets its CONNECT while the destination is being resolved', async () => {
    // The socket of a CONNECT leaves Node's HTTP server without an error listener: a reset that
    // lands while the name is still being resolved must not become an uncaught error (it took
    // the whole downloader down when Chromium closed a tunnel mid-lookup).
    let lookupCount = 0;
    let releaseFirstLookup: () => void = () => undefined;
    let firstLookupStarted: () => void = () => undefined;
    const isFirstLookupStarted = new Promise<void>((started) => (firstLookupStarted = started));
    const stalled = new EgressProxy({
      resolver: new DestinationResolver({
        policy: new DestinationPolicy({ allowedRanges: ['127.0.0.2/32'] }),
        lookup: async (hostname) => {
          lookupCount += 1;
          if (lookupCount === 1) {
            firstLookupStarted();
            await new Promise<void>((release) => (releaseFirstLookup = release));
          }
          return refuseNameLookup(hostname);
        },
      }),
    });
    await stalled.start();
    try {
      const stalledPort = Number(new URL(stalled.proxyUrl).port);
      const socket = connect(stalledPort, '127.0.0.1', () =>
        socket.write('CONNECT slow.test:443 HTTP/1.1\r\nHost: slow.test:443\r\n\r\n'),
      );
      socket.on('error', () => undefined);
      await isFirstLookupStarted;
      socket.resetAndDestroy();
      await new Promise((settle) => setTimeout(settle, 50));
      releaseFirstLookup();
      await new Promise((settle) => setTimeout(settle, 50));
      const next = await connectVia('slow.test:443', stalledPort);
      next.socket.destroy();
      expect(next.statusLine).toBe('HTTP/1.1 502 Bad Gateway');
    } finally {
      await stalled.stop();
    }
  });

  test('never forwards into itself, even when loopback is allow-listed', async () => {
    const permissive = new EgressProxy({
      resolver: new DestinationResolver({
        policy: new DestinationPolicy({ allowedRanges: ['127.0.0.1/32'] }),
        lookup: refuseNameLookup,
      }),
    });
    await permissive.start();
    try {
      const ownPort = Number(new URL(permissive.proxyUrl).port);
      const startedAt = Date.now();
      const { statusLine, socket } = await connectVia(`127.0.0.1:${ownPort}`, ownPort);
      socket.destroy();
      expect(statusLine).toBe('HTTP/1.1 403 Forbidden');
      expect(permissive.failures.latest('127.0.0.1', ownPort, startedAt)?.message).toContain(
        'proxy itself',
      );
    } finally {
      await permissive.stop();
    }
  });
});
