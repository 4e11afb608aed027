import { createHash } from 'node:crypto';
import { computeHealthSignal } from './health-signal';
import type { NetworkLogEntry } from './rendered-page';

const entry = (type: NetworkLogEntry['type'], http_status: number | null): NetworkLogEntry => ({
  url: 'http://example.com/x',
  type,
  method: 'GET',
  http_status,
});

describe('computeHealthSignal', () => {
  test('counts xhr entries by status class and ignores other types', () => {
    const signal = computeHealthSignal(
      [
        entry('document', 500),
        entry('script', 403),
        entry('xhr', 200),
        entry('xhr', 500),
        entry('xhr', 503),
        entry('xhr', 429),
        entry('xhr', 401),
        entry('xhr', 403),
        entry('xhr', 404),
        entry('xhr', null),
      ],
      [],
      'http://example.com/final',
    );
    expect(signal).toEqual({
      xhr_total_count: 8,
      xhr_error_count: 2,
      xhr_throttled_count: 1,
      xhr_denied_count: 2,
      has_console_error: false,
      redirect_target_hash: createHash('sha256')
        .update('http://example.com/final')
        .digest('hex')
        .slice(0, 32),
    });
  });

  test('flags console errors and hashes the normalized final URL', () => {
    const signal = computeHealthSignal(
      [],
      [{ message: 'boom', source_url: 'http://example.com/' }],
      'HTTP://EXAMPLE.com:80/final#top',
    );
    expect(signal.has_console_error).toBe(true);
    expect(signal.xhr_total_count).toBe(0);
    expect(signal.redirect_target_hash).toBe(
      createHash('sha256').update('http://example.com/final').digest('hex').slice(0, 32),
    );
  });
});
