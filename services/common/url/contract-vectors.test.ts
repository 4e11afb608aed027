import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeUrl } from './normalize-url';
import { urlHash } from './url-hash';
import vectors from './url-normalization-vectors.json';

/**
 * CONTRACT.md §十 quotes the normalization vectors for the other parties. This keeps that table,
 * the vector file and the implementation saying the same thing.
 */
function readContractVectorRows(): Array<{ input: string; normalized: string; urlHash: string }> {
  const contract = readFileSync(join(__dirname, '..', '..', '..', 'CONTRACT.md'), 'utf8');
  const section = contract.slice(
    contract.indexOf('<!-- url-normalization-vectors:start -->'),
    contract.indexOf('<!-- url-normalization-vectors:end -->'),
  );
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [input, normalized, hash] = [...line.matchAll(/`([^`]*)`/g)].map((match) => match[1]);
      return { input, normalized, urlHash: hash };
    });
}

describe('CONTRACT.md §十 URL normalization vectors', () => {
  const rows = readContractVectorRows();

  it('quotes every vector of the vector file, in order', () => {
    expect(rows).toEqual(
      vectors.normalized.map((vector) => ({
        input: vector.input,
        normalized: vector.normalized,
        urlHash: vector.url_hash,
      })),
    );
  });

  it.each(rows)(
    '$input normalizes as the contract says',
    ({ input, normalized, urlHash: hash }) => {
      expect(normalizeUrl(input)).toBe(normalized);
      expect(urlHash(input)).toBe(hash);
    },
  );
});
