import { EventEmitter } from 'node:events';
import type { CDPSession } from 'puppeteer-core';
import { NetworkLogRecorder } from './network-log-recorder';

// A stand-in for a page's CDP session: the recorder only subscribes to events.
function fakeSession(): { session: CDPSession; emit: (name: string, event: object) => void } {
  const emitter = new EventEmitter();
  return {
    session: emitter as unknown as CDPSession,
    emit: (name, event) => emitter.emit(name, event),
  };
}

const MAIN_FRAME = 'frame-main';
const OUR_LOADER = 'loader-new';

function request(requestId: string, url: string, type: string, extra: object = {}) {
  return {
    requestId,
    type,
    frameId: MAIN_FRAME,
    loaderId: OUR_LOADER,
    request: { url, method: 'GET' },
    ...extra,
  };
}

/** The navigation this render started: its document request, answered. */
function navigate(emit: (name: string, event: object) => void): void {
  emit('Network.requestWillBeSent', request('doc', 'http://a.test/', 'Document'));
  emit('Network.responseReceived', {
    requestId: 'doc',
    response: { status: 200, url: 'http://a.test/', headers: {} },
  });
}

describe('NetworkLogRecorder', () => {
  test('logs redirect hops, responses, failures; drops blocked and non-http requests', () => {
    const { session, emit } = fakeSession();
    const recorder = new NetworkLogRecorder(session, MAIN_FRAME);
    recorder.start();
    emit('Network.requestWillBeSent', request('doc', 'http://a.test/old', 'Document'));
    emit(
      'Network.requestWillBeSent',
      request('doc', 'http://a.test/new', 'Document', { redirectResponse: { status: 301 } }),
    );
    emit('Network.responseReceived', {
      requestId: 'doc',
      response: {
        status: 200,
        url: 'http://a.test/new',
        headers: { 'Content-Type': 'text/html', ETag: '"e"' },
      },
    });
    emit('Network.requestWillBeSent', request('img', 'http://a.test/i.png', 'Image'));
    emit('Network.loadingFailed', {
      requestId: 'img',
      errorText: 'net::ERR_BLOCKED_BY_CLIENT',
      blockedReason: 'inspector',
    });
    emit('Network.requestWillBeSent', request('api', 'http://a.test/api', 'Fetch'));
    emit('Network.loadingFailed', { requestId: 'api', errorText: 'net::ERR_EMPTY_RESPONSE' });
    emit('Network.requestWillBeSent', request('data', 'data:text/plain,x', 'Other'));
    emit('Network.webSocketCreated', { requestId: 'ws', url: 'ws://a.test/socket' });
    emit('Network.webSocketHandshakeResponseReceived', {
      requestId: 'ws',
      response: { status: 101 },
    });

    expect(recorder.networkLog).toEqual([
      { url: 'http://a.test/old', type: 'document', method: 'GET', http_status: 301 },
      { url: 'http://a.test/new', type: 'document', method: 'GET', http_status: 200 },
      { url: 'http://a.test/api', type: 'xhr', method: 'GET', http_status: null },
      { url: 'ws://a.test/socket', type: 'websocket', method: 'GET', http_status: 101 },
    ]);
    expect(recorder.mainDocument).toEqual(
      expect.objectContaining({
        url: 'http://a.test/new',
        status: 200,
        headers: { 'content-type': 'text/html', etag: '"e"' },
      }),
    );
    expect(recorder.awaitingHead.inFlightCount).toBe(0);
    // The main document got its head but never finished loading here.
    expect(recorder.awaitingLoad.inFlightCount).toBe(1);
  });

  test('tracks requests in flight until their response head or failure', () => {
    const { session, emit } = fakeSession();
    const recorder = new NetworkLogRecorder(session, MAIN_FRAME);
    recorder.start();
    navigate(emit);
    let activityCount = 0;
    recorder.onActivity(() => (activityCount += 1));
    emit('Network.requestWillBeSent', request('one', 'http://a.test/1', 'XHR'));
    emit('Network.requestWillBeSent', request('two', 'http://a.test/2', 'Fetch'));
    emit('Network.requestWillBeSent', request('events', 'http://a.test/stream', 'EventSource'));
    expect(recorder.awaitingHead.inFlightCount).toBe(2);
    emit('Network.responseReceived', {
      requestId: 'one',
      response: { status: 500, url: 'http://a.test/1', headers: {} },
    });
    emit('Network.loadingFailed', { requestId: 'two', errorText: 'net::ERR_FAILED' });
    expect(recorder.awaitingHead.inFlightCount).toBe(0);
    expect(activityCount).toBe(4);
  });

  test('tracks requests until their body finished, for the settle, and counts every change', () => {
    const { session, emit } = fakeSession();
    const recorder = new NetworkLogRecorder(session, MAIN_FRAME);
    recorder.start();
    navigate(emit);
    emit('Network.loadingFinished', { requestId: 'doc' });
    const countBefore = recorder.activityCount;
    emit('Network.requestWillBeSent', request('api', 'http://a.test/api', 'Fetch'));
    emit('Network.responseReceived', {
      requestId: 'api',
      response: { status: 200, url: 'http://a.test/api', headers: {} },
    });
    expect(recorder.awaitingHead.inFlightCount).toBe(0);
    expect(recorder.awaitingLoad.inFlightCount).toBe(1);
    emit('Network.loadingFinished', { requestId: 'api' });
    expect(recorder.awaitingLoad.inFlightCount).toBe(0);
    // A second finish of the same request (or one never seen) is no activity.
    emit('Network.loadingFinished', { requestId: 'api' });
    emit('Network.loadingFinished', { requestId: 'unknown' });
    expect(recorder.activityCount - countBefore).toBe(3);
    expect(recorder.lastActivityAtMs).toBeLessThanOrEqual(Date.now());
  });

  test('remembers the failure of the main document and ignores other frames', () => {
    const { session, emit } = fakeSession();
    const recorder = new NetworkLogRecorder(session, MAIN_FRAME);
    recorder.start();
    emit(
      'Network.requestWillBeSent',
      request('frame', 'http://b.test/', 'Document', { frameId: 'child' }),
    );
    emit('Network.requestWillBeSent', request('doc', 'http://a.test/', 'Document'));
    emit('Network.loadingFailed', {
      requestId: 'doc',
      errorText: 'net::ERR_TUNNEL_CONNECTION_FAILED',
    });
    expect(recorder.mainDocument).toEqual(
      expect.objectContaining({
        url: 'http://a.test/',
        errorText: 'net::ERR_TUNNEL_CONNECTION_FAILED',
      }),
    );
  });

  test('stops listening on stop() and caps the log', () => {
    const { session, emit } = fakeSession();
    const recorder = new NetworkLogRecorder(session, MAIN_FRAME, 3);
    recorder.start();
    navigate(emit);
    for (const id of ['1', '2', '3']) {
      emit('Network.requestWillBeSent', request(id, `http://a.test/${id}`, 'Script'));
    }
    recorder.stop();
    emit('Network.requestWillBeSent', request('4', 'http://a.test/4', 'Script'));
    expect(recorder.networkLog.map((entry) => entry.url)).toEqual([
      'http://a.test/',
      'http://a.test/1',
      'http://a.test/2',
    ]);
  });

  test("ignores the previous document's requests on a reused page", () => {
    const { session, emit } = fakeSession();
    const recorder = new NetworkLogRecorder(session, MAIN_FRAME);
    recorder.start();
    const old = { loaderId: 'loader-old' };
    const frame = { frameId: 'child', loaderId: 'loader-frame' };
    emit('Network.requestWillBeSent', request('poll-1', 'http://old.test/poll', 'XHR', old));
    emit('Network.webSocketCreated', { requestId: 'old-socket', url: 'ws://old.test/socket' });
    emit('Network.requestWillBeSent', request('doc', 'http://a.test/', 'Document'));
    emit('Network.requestWillBeSent', request('poll-2', 'http://old.test/poll', 'XHR', old));
    emit(
      'Network.requestWillBeSent',
      request('old-frame', 'http://old.test/frame', 'Document', { ...old, frameId: 'old-child' }),
    );
    emit('Network.responseReceived', {
      requestId: 'doc',
      response: { status: 200, url: 'http://a.test/', headers: {} },
    });
    emit('Network.requestWillBeSent', request('script', 'http://a.test/app.js', 'Script'));
    emit('Network.requestWillBeSent', request('frame', 'http://b.test/', 'Document', frame));
    emit('Network.requestWillBeSent', request('frame-xhr', 'http://b.test/api', 'XHR', frame));
    emit('Network.webSocketCreated', { requestId: 'socket', url: 'ws://a.test/socket' });
    expect(recorder.networkLog.map((entry) => entry.url)).toEqual([
      'http://a.test/',
      'http://a.test/app.js',
      'http://b.test/',
      'http://b.test/api',
      'ws://a.test/socket',
    ]);
    expect(recorder.awaitingHead.inFlightCount).toBe(3);
  });
});
