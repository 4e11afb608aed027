import { keySuccessor, prefixEnd } from './key-range';

describe('key ranges', () => {
  test('prefixEnd is the smallest key above every key with the prefix', () => {
    expect(prefixEnd(Buffer.from([0x61, 0x62]))).toEqual(Buffer.from([0x61, 0x63]));
    expect(prefixEnd(Buffer.from([0x61, 0xff, 0xff]))).toEqual(Buffer.from([0x62]));
    const prefix = Buffer.from([0x61, 0xfe]);
    const end = prefixEnd(prefix);
    expect(Buffer.compare(Buffer.from([0x61, 0xfe, 0xff, 0xff]), end)).toBe(-1);
    expect(prefix).toEqual(Buffer.from([0x61, 0xfe])); // input untouched
    expect(() => prefixEnd(Buffer.from([0xff]))).toThrow(RangeError);
  });

  test('keySuccessor sorts right after its key', () => {
    const key = Buffer.from('row-1');
    const successor = keySuccessor(key);
    expect(Buffer.compare(key, successor)).toBe(-1);
    expect(Buffer.compare(successor, Buffer.from('row-1\u0001'))).toBe(-1);
  });
});
