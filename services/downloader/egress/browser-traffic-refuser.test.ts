import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { BrowserTrafficRefuser } from './browser-traffic-refuser';
import {
  startConnectionCountingListener,
  type ConnectionCountingListener,
} from './egress-test-support';

describe('BrowserTrafficRefuser', () => {
  let refuser: BrowserTrafficRefuser;
  let port: number;
  let target: ConnectionCountingListener;

  beforeEach(async () => {
    target = await startConnectionCountingListener('127.0.0.9');
    refuser = new BrowserTrafficRefuser();
    await refuser.start();
    port = Number(new URL(refuser.proxyUrl).port);
  });

  afterEach(async () => {
    await refuser.stop();
    await target.close();
  });

  function connectStatusLine(authority: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`),
      );
      socket.once('data', (chunk: Buffer) => {
        socket.destroy();
        resolve(chunk.toString().split('\r\n')[0]);
      });
      socket.once('error', reject);
    });
  }

  test('refuses a CONNECT without contacting its destination', async () => {
    const authority = `${target.host}:${target.port}`;
    expect(await connectStatusLine(authority)).toBe('HTTP/1.1 403 Forbidden');
    expect(target.connectionCount()).toBe(0);
    expect(refuser.refused).toEqual({ count: 1, hosts: [authority] });
  });

  test('refuses a forwarded plain-HTTP request without contacting its destination', async () => {
    const authority = `${target.host}:${target.port}`;
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        path: `http://${authority}/service/update2/json`,
        headers: { host: authority },
        agent: false,
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(403);
    expect(target.connectionCount()).toBe(0);
    expect(refuser.refused.hosts).toEqual([authority]);
  });

  test('a CONNECT the browser resets is no uncaught error', async () => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('CONNECT accounts.example:443 HTTP/1.1\r\nHost: accounts.example:443\r\n\r\n');
      socket.resetAndDestroy();
    });
    socket.on('error', () => undefined);
    await new Promise((settle) => setTimeout(settle, 100));
    expect(await connectStatusLine('update.example:443')).toBe('HTTP/1.1 403 Forbidden');
  });
});
