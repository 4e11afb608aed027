import { request as httpRequest } from 'node:http';
import { urlCounts } from './testing/lease-helpers';
import {
  startTestScheduler,
  TEST_SCHEDULER_TOKEN,
  type TestScheduler,
} from './testing/scheduler-test-harness';

/*
 * Bad input a schema-driven fuzzer cannot send (it only builds requests its schema describes):
 * bytes that are not JSON or not UTF-8, bodies of the wrong media type or shape, repeated query
 * parameters, a body on a GET, raw paths the router has to decode. Each must get the contract's
 * error body with a 4xx — never a 5xx, never a hang — and change nothing (issue 11: the
 * bad-input probe that lived outside the repository). The schema-expressible cases are
 * `npm run fuzz`'s negative testing.
 */
let scheduler: TestScheduler;

beforeAll(async () => {
  scheduler = await startTestScheduler();
});

afterAll(async () => {
  await scheduler?.stop();
});

interface RawAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** One raw HTTP request (no client library to tidy the bytes up). */
function sendRaw(options: {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}): Promise<RawAnswer> {
  const url = new URL(scheduler.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method,
        path: options.path,
        headers: { Authorization: `Bearer ${TEST_SCHEDULER_TOKEN}`, ...options.headers },
        timeout: 5000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Record<string, unknown> = {};
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            body = { unparsed: text };
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
      },
    );
    request.once('timeout', () => request.destroy(new Error('no answer within 5 s')));
    request.once('error', reject);
    if (options.body !== undefined) request.write(options.body);
    request.end();
  });
}

const json = { 'Content-Type': 'application/json' };
const seed = JSON.stringify({ seed_list: [{ url: 'https://news.example/' }] });

test.each([
  ['JSON cut off', { method: 'POST', path: '/v1/seeds', headers: json, body: '{"seed_list": [' }],
  [
    'bytes that are not UTF-8',
    {
      method: 'POST',
      path: '/v1/seeds',
      headers: json,
      body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    },
  ],
  ['a JSON array as the body', { method: 'POST', path: '/v1/seeds', headers: json, body: '[]' }],
  ['JSON null as the body', { method: 'POST', path: '/v1/seeds', headers: json, body: 'null' }],
  ['a JSON string as the body', { method: 'POST', path: '/v1/seeds', headers: json, body: '"x"' }],
  [
    'JSON sent as text/plain',
    { method: 'POST', path: '/v1/seeds', headers: { 'Content-Type': 'text/plain' }, body: seed },
  ],
  [
    'a charset JSON cannot have',
    {
      method: 'POST',
      path: '/v1/seeds',
      headers: { 'Content-Type': 'application/json; charset=latin-9000' },
      body: seed,
    },
  ],
  [
    'JSON nested 100,000 deep',
    {
      method: 'POST',
      path: '/v1/seeds',
      headers: json,
      body: `{"seed_list":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    },
  ],
  [
    'a duplicated key smuggling a second type',
    {
      method: 'POST',
      path: '/v1/seeds',
      headers: json,
      body: '{"seed_list":[{"url":"https://news.example/"}],"seed_list":"x"}',
    },
  ],
  ['a repeated query parameter', { method: 'GET', path: '/v1/lease?worker_id=w1&worker_id=w2' }],
  [
    'a repeated numeric parameter',
    { method: 'GET', path: '/v1/lease?worker_id=w1&task_count=1&task_count=2' },
  ],
  ['a query parameter in bracket syntax', { method: 'GET', path: '/v1/lease?worker_id[a]=w1' }],
  ['a NUL byte in a path parameter', { method: 'GET', path: '/v1/operator/url-tasks/%00' }],
  ['a path of dot segments', { method: 'GET', path: '/v1/operator/url-tasks/..%2F..%2Fetc' }],
  [
    'a body on a GET',
    { method: 'GET', path: '/v1/lease', headers: json, body: '{"worker_id":"w1"}' },
  ],
])('%s: 4xx with the contract error body, nothing changed', async (_name, options) => {
  const before = await urlCounts(scheduler.client);
  const answer = await sendRaw(options);
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(answer.body).toEqual(
    expect.objectContaining({ error_code: expect.any(String), message: expect.any(String) }),
  );
  expect(await urlCounts(scheduler.client)).toEqual(before);
});
