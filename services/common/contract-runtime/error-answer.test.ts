import { listenOnLoopback } from '../testing/listen-on-loopback';
import { sendErrorBody, sendJson } from './error-answer';

describe('JSON answers on node:http', () => {
  let server: Awaited<ReturnType<typeof listenOnLoopback>>;
  beforeAll(async () => {
    server = await listenOnLoopback((request, response) => {
      if (request.url === '/value') sendJson(response, 200, { lease_id: 'l-1', task_list: [] });
      else if (request.url === '/nothing') sendJson(response, 200, undefined);
      else if (request.url === '/no-content') sendJson(response, 204, { ignored: true });
      else
        sendErrorBody(response, 429, {
          error_code: 'domain_rate_limited',
          message: 'slow down',
          retry_after_seconds: 3,
        });
    });
  });
  afterAll(() => server.close());

  it('writes the value as UTF-8 JSON with its length, and no ETag', async () => {
    const answer = await fetch(`${server.url}/value`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('content-length')).toBe(
      String('{"lease_id":"l-1","task_list":[]}'.length),
    );
    expect(answer.headers.get('etag')).toBeNull();
    expect(await answer.json()).toEqual({ lease_id: 'l-1', task_list: [] });
  });

  it('answers undefined with an empty body, and 204 with no body and no length', async () => {
    const nothing = await fetch(`${server.url}/nothing`);
    expect(nothing.status).toBe(200);
    expect(nothing.headers.get('content-length')).toBe('0');
    expect(await nothing.text()).toBe('');
    const noContent = await fetch(`${server.url}/no-content`);
    expect(noContent.status).toBe(204);
    expect(noContent.headers.get('content-length')).toBeNull();
    expect(await noContent.text()).toBe('');
  });

  it('writes the contract error body, with Retry-After for a 429', async () => {
    const answer = await fetch(`${server.url}/limited`);
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(await answer.json()).toMatchObject({
      error_code: 'domain_rate_limited',
      retry_after_seconds: 3,
    });
  });
});
