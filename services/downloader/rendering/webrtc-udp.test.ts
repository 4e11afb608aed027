import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { browserBuilds } from '../testing/browser-builds';
import { expectRenderedPage, loopbackRenderEngine } from '../testing/loopback-render-engine';
import { startScriptedOrigin, type ScriptedOrigin } from '../testing/scripted-origin';

// WebRTC is the one way a page can send packets that bypass the egress proxy: UDP to a STUN server
// it names. The render browser allows only proxied UDP (chromium-arguments.ts; the full browser
// and the headless shell read different switches), and the proxy carries none, so a page asking a
// STUN server for its address must send nothing. The STUN "server" here is a UDP socket on
// loopback that counts what reaches it.

const HOST = '127.0.0.18';

/**
 * `#content` (what the render waits for) appears only once the page's offer is set — ICE
 * gathering has started — so a browser without working WebRTC fails the render instead of
 * passing for sending nothing.
 */
function stunPage(stunPort: number): string {
  return `<!doctype html><html lang="en"><title>webrtc</title>
<script>
  const connection = new RTCPeerConnection({ iceServers: [{ urls: 'stun:${HOST}:${stunPort}' }] });
  connection.createDataChannel('probe');
  connection
    .createOffer()
    .then((offer) => connection.setLocalDescription(offer))
    .then(() => {
      const content = document.createElement('main');
      content.id = 'content';
      content.textContent = 'offer set';
      document.body.append(content);
    });
</script></html>`;
}

let stunServer: Socket;
let stunPacketCount = 0;
let origin: ScriptedOrigin;

beforeAll(async () => {
  stunServer = createSocket('udp4');
  stunServer.on('message', () => {
    stunPacketCount += 1;
  });
  await new Promise<void>((resolve) => stunServer.bind(0, HOST, resolve));
  const stunPort = (stunServer.address() as AddressInfo).port;
  origin = await startScriptedOrigin(HOST, () => ({ status: 200, body: stunPage(stunPort) }));
});

afterAll(async () => {
  await origin?.close();
  stunServer?.close();
});

test.each(browserBuilds())(
  '$name: a page asking a STUN server on loopback for its address sends it no UDP packet',
  async ({ executablePath }) => {
    stunPacketCount = 0;
    const engine = loopbackRenderEngine([HOST], { concurrency: 1, executablePath });
    try {
      await engine.start();
      await expectRenderedPage(engine, `${origin.baseUrl}/rtc`);
      // ICE gathering sends its first binding request within milliseconds of
      // setLocalDescription and retransmits for seconds; the render may end before it starts.
      await delay(1500);
    } finally {
      await engine.stop();
    }
    expect(stunPacketCount).toBe(0);
  },
  60_000,
);
