import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { DestinationPolicy } from './destination-policy';
import { DestinationResolver } from './destination-resolver';
import { EgressProxy } from './egress-proxy';
import { refuseNameLookup } from './egress-test-support';

// An origin closes an idle keep-alive connection on its own clock; a request the proxy writes to
// that connection in the same instant is never answered (stale-connection-retry.ts). The origin
// here is raw TCP so the test decides exactly which request meets a closed connection.

const ORIGIN_HOST = '127.0.0.16';

interface SeenRequest {
  method: string;
  path: string;
  connection: number;
}

interface ScriptedKeepAliveOrigin {
  readonly port: number;
  readonly seen: SeenRequest[];
  /** Connections the client closed (ended) before the origin did. */
  readonly closedByClient: number[];
  close(): Promise<void>;
}

/**
 * Answers the first request of each connection (200, its path as the body) and keeps the
 * connection; on a connection's second request it closes the connection without answering — as an
 * origin whose keep-alive timer fired just as that request arrived. `keepAliveSeconds` is the
 * timeout it announces.
 */
async function startOrigin(keepAliveSeconds: number): Promise<ScriptedKeepAliveOrigin> {
  const seen: SeenRequest[] = [];
  const closedByClient: number[] = [];
  let connectionCount = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    const connection = (connectionCount += 1);
    sockets.add(socket);
    let isClosingItself = false;
    let buffered = '';
    let answered = 0;
    socket.on('end', () => {
      if (!isClosingItself) closedByClient.push(connection);
    });
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return; // the body is still coming
        buffered = buffered.slice(end + 4 + length);
        const [method, path] = head.split(' ');
        seen.push({ method, path, connection });
        if (answered >= 1) {
          isClosingItself = true;
          socket.destroy();
          return;
        }
        answered += 1;
        socket.write(
          `HTTP/1.1 200 OK\r\nContent-Length: ${path.length}\r\nConnection: keep-alive\r\n` +
            `Keep-Alive: timeout=${keepAliveSeconds}\r\n\r\n${path}`,
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, ORIGIN_HOST, () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    closedByClient,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let origin: ScriptedKeepAliveOrigin;
let proxy: EgressProxy;

async function start(keepAliveSeconds: number): Promise<void> {
  origin = await startOrigin(keepAliveSeconds);
  proxy = new EgressProxy({
    resolver: new DestinationResolver({
      policy: new DestinationPolicy({ allowedRanges: [`${ORIGIN_HOST}/32`] }),
      lookup: refuseNameLookup,
    }),
  });
  await proxy.start();
}

afterEach(async () => {
  await proxy?.stop();
  await origin?.close();
});

/** One request through the proxy, as a browser sends it: its status and body, or its error. */
function viaProxy(method: string, path: string, body?: string): Promise<string> {
  const url = `http://${ORIGIN_HOST}:${origin.port}${path}`;
  return new Promise((resolve) => {
    const request = httpRequest({
      host: '127.0.0.1',
      port: Number(new URL(proxy.proxyUrl).port),
      method,
      path: url,
      headers: { host: new URL(url).host },
      agent: false,
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(`${response.statusCode} ${text}`));
    });
    request.on('error', (error) => resolve(`error ${error.message}`));
    request.end(body);
  });
}

test('a GET the origin closed its reused connection on is sent again on a new connection', async () => {
  await start(30);
  expect(await viaProxy('GET', '/first')).toBe('200 /first');
  expect(await viaProxy('GET', '/second')).toBe('200 /second');
  expect(origin.seen).toEqual([
    { method: 'GET', path: '/first', connection: 1 },
    { method: 'GET', path: '/second', connection: 1 }, // closed unanswered
    { method: 'GET', path: '/second', connection: 2 },
  ]);
  expect(proxy.counters.closedConnectionRetryCount).toBe(1);
  expect(proxy.counters.failedCount).toBe(0);
});

test('a request with a body is not sent twice: the page sees it dropped', async () => {
  await start(30);
  expect(await viaProxy('GET', '/first')).toBe('200 /first');
  expect(await viaProxy('POST', '/order', 'quantity=1')).toMatch(/^error /);
  expect(origin.seen.filter((seen) => seen.path === '/order')).toHaveLength(1);
  expect(proxy.counters.closedConnectionRetryCount).toBe(0);
  expect(proxy.counters.failedCount).toBe(1);
});

test('an idle connection is closed by the proxy before the timeout the origin announced', async () => {
  await start(2);
  expect(await viaProxy('GET', '/first')).toBe('200 /first');
  // The origin keeps the connection 2 s; the proxy lets it go after 1 s idle.
  await delay(1500);
  expect(origin.closedByClient).toEqual([1]);
  expect(await viaProxy('GET', '/second')).toBe('200 /second');
  expect(origin.seen.map((seen) => seen.connection)).toEqual([1, 2]);
  expect(proxy.counters.closedConnectionRetryCount).toBe(0);
});
