import {
  closestName,
  editDistance,
  NearMissFinder,
  normalizeName,
  toSnakeCase,
} from './name-similarity';

describe('name similarity', () => {
  test('converts and normalizes names', () => {
    expect(toSnakeCase('minIntervalMS')).toBe('min_interval_ms');
    expect(toSnakeCase('TimeoutMs')).toBe('timeout_ms');
    expect(toSnakeCase('Retry-After')).toBe('retry_after');
    expect(normalizeName('TIMEOUT_MS')).toBe(normalizeName('timeoutMs'));
  });

  test('measures edit distance with adjacent swaps, giving up above the limit', () => {
    expect(editDistance('fetched_at', 'fetched_ta')).toBe(1);
    expect(editDistance('url_hash', 'url_hashes')).toBe(2);
    expect(editDistance('lease_id', 'worker_id', 2)).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  test('suggests the closest candidate, a truncated word, or nothing', () => {
    expect(closestName('timeoutMs', ['timeout_ms', 'time_ms'])).toBe('timeout_ms');
    expect(closestName('sched', ['scheduler', 'sampler'])).toBe('scheduler');
    expect(closestName('LeaseTasks', ['LeaseTask', 'LinkItem'])).toBe('LeaseTask');
    expect(closestName('priority_rank', ['retry_count'])).toBeUndefined();
  });

  test('finds near misses of contract names and nothing for unrelated or exact names', () => {
    const finder = new NearMissFinder(
      ['timeout_ms', 'url_count', 'expires_at', 'lease_ttl_seconds', 'url', 'url_hash'],
      {
        unitSuffixes: ['_ms', '_seconds'],
        otherSuffixes: ['_count', '_list', '_at'],
        knownNames: ['url_task'],
      },
    );
    expect(finder.find('timeoutMs')?.contractName).toBe('timeout_ms');
    expect(finder.find('count_url')?.reason).toBe('the same words in another order');
    expect(finder.find('expires')?.reason).toBe('the contract name without its `_at` suffix');
    expect(finder.find('lease_ttl_ms')?.reason).toBe(
      'the contract name with `_ms` instead of `_seconds`',
    );
    expect(finder.find('expired_at')?.reason).toBe('1 edit away');
    expect(finder.find('url_hashes')?.contractName).toBe('url_hash');
    expect(finder.find('url_hahs')?.reason).toBe('1 edit away');
    expect(finder.find('url_task')).toBeUndefined();
    expect(finder.find('uri')).toBeUndefined();
    expect(finder.find('request_id')).toBeUndefined();
    expect(finder.find('timeout_ms')).toBeUndefined();
  });
});
