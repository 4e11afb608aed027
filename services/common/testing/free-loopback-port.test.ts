import { freeLoopbackPort } from './free-loopback-port';

describe('freeLoopbackPort', () => {
  it.each(['127.0.0.1', '127.0.0.8'])('answers a port nothing listens on at %s', async (host) => {
    const port = await freeLoopbackPort(host);
    expect(port).toBeGreaterThan(0);
    await expect(fetch(`http://${host}:${port}/`)).rejects.toThrow();
  });
});
