import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { DestinationPolicy } from './destination-policy';
import { DestinationResolver } from './destination-resolver';
import {
  ConnectionCountingListener,
  egressFailureOf,
  refuseNameLookup,
  startConnectionCountingListener,
} from './egress-test-support';
import {
  DEFAULT_CRAWLER_USER_AGENT,
  plainHttpFetch,
  PlainHttpFetchOptions,
} from './plain-http-fetch';

type Route = (request: IncomingMessage, response: ServerResponse) => void;

describe('plainHttpFetch against loopback servers', () => {
  let server: Server;
  let base: string;
  let forbidden: ConnectionCountingListener;
  const seenHeaders: IncomingMessage['headers'][] = [];
  const routes: Record<string, Route> = {
    '/robots.txt': (request, response) => {
      response.setHeader('etag', '"r1"');
      response.setHeader('last-modified', 'Tue, 03 Mar 2026 10:00:00 GMT');
      if (request.headers['if-none-match'] === '"r1"') {
        response.writeHead(304).end();
        return;
      }
      response.setHeader('content-type', 'text/plain');
      response.end('User-agent: *\nDisallow: /private/\n');
    },
    '/gzipped': (_request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
      response.end(gzipSync('decompressed text'));
    },
    '/hop': (_request, response) => response.writeHead(302, { location: '/robots.txt' }).end(),
    '/loop': (_request, response) => response.writeHead(302, { location: '/loop' }).end(),
    '/to-forbidden': (_request, response) =>
      response.writeHead(302, { location: `http://127.0.0.9:${forbidden.port}/secret` }).end(),
    '/to-ftp': (_request, response) =>
      response.writeHead(301, { location: 'ftp://127.0.0.2/x' }).end(),
    '/big': (_request, response) => response.end(Buffer.alloc(5000, 97)),
    '/big-chunked': (_request, response) => {
      response.write(Buffer.alloc(3000, 97));
      response.end(Buffer.alloc(3000, 97));
    },
    '/bomb': (_request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip' });
      response.end(gzipSync(Buffer.alloc(100_000, 0)));
    },
    '/slow': (_request, response) => {
      setTimeout(() => response.end('late'), 1000);
    },
  };

  beforeAll(async () => {
    forbidden = await startConnectionCountingListener('127.0.0.9');
    server = createServer((request, response) => {
      seenHeaders.push(request.headers);
      const route = routes[new URL(request.url ?? '/', 'http://x').pathname];
      if (route === undefined) response.writeHead(404).end('not here');
      else route(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', () => resolve()));
    base = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await forbidden.close();
  });

  const options = (overrides: Partial<PlainHttpFetchOptions> = {}): PlainHttpFetchOptions => ({
    resolver: new DestinationResolver({
      policy: new DestinationPolicy({ allowedRanges: ['127.0.0.2/32'] }),
      lookup: refuseNameLookup,
    }),
    timeoutMs: 3000,
    maxBodyBytes: 4096,
    ...overrides,
  });

  test('fetches a body with an honest User-Agent and reports validators', async () => {
    const response = await plainHttpFetch(`${base}/robots.txt`, options());
    expect(response.status).toBe(200);
    expect(response.body.toString()).toContain('Disallow: /private/');
    expect(response.headers.etag).toBe('"r1"');
    expect(response.finalUrl).toBe(`${base}/robots.txt`);
    expect(seenHeaders.at(-1)?.['user-agent']).toBe(DEFAULT_CRAWLER_USER_AGENT);
    expect(seenHeaders.at(-1)?.['if-none-match']).toBeUndefined();
  });

  test('sends conditional headers and returns 304 as is', async () => {
    const response = await plainHttpFetch(
      `${base}/robots.txt`,
      options({
        conditional: { ifNoneMatch: '"r1"', ifModifiedSince: 'Tue, 03 Mar 2026 10:00:00 GMT' },
      }),
    );
    expect(response.status).toBe(304);
    expect(response.body.length).toBe(0);
    expect(seenHeaders.at(-1)?.['if-modified-since']).toBe('Tue, 03 Mar 2026 10:00:00 GMT');
  });

  test('follows redirects, re-normalizing each hop, and bounds them', async () => {
    const response = await plainHttpFetch(`${base}/hop`, options({ userAgent: 'Custom/1.0' }));
    expect(response.finalUrl).toBe(`${base}/robots.txt`);
    expect(response.redirectCount).toBe(1);
    expect(seenHeaders.at(-1)?.['user-agent']).toBe('Custom/1.0');
    expect(
      (await egressFailureOf(plainHttpFetch(`${base}/loop`, options({ maxRedirectCount: 3 }))))
        .kind,
    ).toBe('too_many_redirects');
    expect((await egressFailureOf(plainHttpFetch(`${base}/to-ftp`, options()))).kind).toBe(
      'invalid_url',
    );
  });

  test('decompresses gzip and bounds the decompressed size', async () => {
    expect((await plainHttpFetch(`${base}/gzipped`, options())).body.toString()).toBe(
      'decompressed text',
    );
    expect((await egressFailureOf(plainHttpFetch(`${base}/bomb`, options()))).kind).toBe(
      'content_too_large',
    );
  });

  test('bounds body size whether declared or streamed', async () => {
    expect((await egressFailureOf(plainHttpFetch(`${base}/big`, options()))).kind).toBe(
      'content_too_large',
    );
    expect((await egressFailureOf(plainHttpFetch(`${base}/big-chunked`, options()))).kind).toBe(
      'content_too_large',
    );
  });

  test('bounds total time', async () => {
    const failure = await egressFailureOf(
      plainHttpFetch(`${base}/slow`, options({ timeoutMs: 200 })),
    );
    expect(failure.kind).toBe('timeout');
  });

  test('refuses a forbidden destination, directly or by redirect, without contacting it', async () => {
    const direct = await egressFailureOf(
      plainHttpFetch(`http://127.0.0.9:${forbidden.port}/`, options()),
    );
    expect(direct.kind).toBe('destination_refused');
    const redirected = await egressFailureOf(plainHttpFetch(`${base}/to-forbidden`, options()));
    expect(redirected.kind).toBe('destination_refused');
    expect(forbidden.connectionCount()).toBe(0);
  });

  test('maps an unresolvable name and a closed port to their failure kinds', async () => {
    expect(
      (await egressFailureOf(plainHttpFetch('http://unresolvable.test/', options()))).kind,
    ).toBe('dns_resolution_failed');
    const closedPort = await startConnectionCountingListener('127.0.0.2');
    await closedPort.close();
    const refused = await egressFailureOf(
      plainHttpFetch(`http://127.0.0.2:${closedPort.port}/`, options()),
    );
    expect(refused.kind).toBe('connection_failed');
  });

  test('rejects URLs it must not fetch', async () => {
    expect((await egressFailureOf(plainHttpFetch('file:///etc/passwd', options()))).kind).toBe(
      'invalid_url',
    );
  });
});
