import { RegionCache } from './region-cache';
import { RegionRoute, compareUint64 } from './region-route';

function route(id: string, start: string, end: string, version = '1'): RegionRoute {
  return {
    id,
    startKey: Buffer.from(start),
    endKey: Buffer.from(end),
    epoch: { conf_ver: '1', version },
    peers: [{ id: `${id}0`, store_id: '1' }],
    leader: undefined,
  };
}

describe('RegionCache', () => {
  it('finds the region whose [start, end) holds a key, with empty bounds meaning infinity', () => {
    const cache = new RegionCache();
    cache.insert(route('1', '', 'g'));
    cache.insert(route('3', 'p', ''));
    cache.insert(route('2', 'g', 'p'));
    expect(cache.find(Buffer.from('a'))?.id).toBe('1');
    expect(cache.find(Buffer.from('g'))?.id).toBe('2');
    expect(cache.find(Buffer.from('ozzz'))?.id).toBe('2');
    expect(cache.find(Buffer.from('\xff\xff', 'latin1'))?.id).toBe('3');
    expect(cache.find(Buffer.alloc(0))?.id).toBe('1');
  });

  it('leaves gaps uncached and evicts every overlapping region on insert', () => {
    const cache = new RegionCache();
    cache.insert(route('1', 'a', 'g'));
    cache.insert(route('2', 'g', 'p'));
    expect(cache.find(Buffer.from('0'))).toBeUndefined();
    cache.insert(route('9', 'e', 'h', '2'));
    expect(cache.size).toBe(1);
    expect(cache.find(Buffer.from('b'))).toBeUndefined();
    expect(cache.findById('2')).toBeUndefined();
    expect(cache.find(Buffer.from('f'))?.id).toBe('9');
  });

  it('invalidates only the exact route object a failed request used', () => {
    const cache = new RegionCache();
    const stale = route('1', 'a', 'g');
    cache.insert(stale);
    const fresh = route('1', 'a', 'g', '2');
    cache.insert(fresh);
    cache.invalidate(stale);
    expect(cache.find(Buffer.from('b'))).toBe(fresh);
    cache.invalidate(fresh);
    expect(cache.find(Buffer.from('b'))).toBeUndefined();
  });

  it('compares uint64 strings numerically without precision loss', () => {
    expect(compareUint64('9007199254740993', '9007199254740992')).toBe(1);
    expect(compareUint64('18446744073709551615', '9')).toBe(1);
    expect(compareUint64('10', '10')).toBe(0);
  });
});
