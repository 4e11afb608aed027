import { randomHex } from './random-hex';

describe('randomHex', () => {
  it('gives the asked number of lowercase hex characters, different every time', () => {
    for (const length of [1, 12, 16, 24]) {
      const ids = Array.from({ length: 2000 }, () => randomHex(length));
      for (const id of ids) expect(id).toMatch(new RegExp(`^[0-9a-f]{${length}}$`));
      if (length >= 12) expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('uses every hex digit at every position (no fixed UUID version or variant digit)', () => {
    const ids = Array.from({ length: 4000 }, () => randomHex(24));
    for (let position = 0; position < 24; position += 1) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    }
  });

  it('refuses a length it cannot fill', () => {
    expect(() => randomHex(0)).toThrow(RangeError);
    expect(() => randomHex(25)).toThrow(RangeError);
    expect(() => randomHex(1.5)).toThrow(RangeError);
  });
});
