import { StringCodes } from './string-codes';

describe('StringCodes', () => {
  it('codes null as 0 and every other string once, in the order first seen', () => {
    const codes = new StringCodes(255);
    expect(codes.codeOf(null)).toBe(0);
    expect(codes.codeOf('queued')).toBe(1);
    expect(codes.codeOf('done')).toBe(2);
    expect(codes.codeOf('queued')).toBe(1);
    expect(codes.textOf(0)).toBeNull();
    expect(codes.textOf(2)).toBe('done');
    expect(codes.existingCodeOf('failed')).toBe(-1);
    expect(codes.size).toBe(3);
  });

  it('refuses a code past its limit and a code it never gave', () => {
    const codes = new StringCodes(2);
    codes.codeOf('a');
    codes.codeOf('b');
    expect(() => codes.codeOf('c')).toThrow(RangeError);
    expect(codes.codeOf('a')).toBe(1);
    expect(() => codes.textOf(7)).toThrow(RangeError);
  });
});
