import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { checksumOfPath, checksumOnThread } from './snapshot-checksum';

describe('snapshot checksums', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'snapshot-checksum-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('answers the CRC-32 of a prefix of the file, here and on a thread of its own', async () => {
    // Over one read window (8 MiB), so that the windows chain.
    const bytes = randomBytes(9 * 1024 * 1024 + 17);
    const path = join(directory, 'file');
    writeFileSync(path, bytes);
    const byteCount = bytes.length - 4;
    const expected = crc32(bytes.subarray(0, byteCount));
    expect(checksumOfPath({ path, byteCount })).toBe(expected);
    await expect(checksumOnThread({ path, byteCount })).resolves.toBe(expected);
  });

  it('rejects on a thread that cannot read the file, so that its caller checksums it itself', async () => {
    await expect(
      checksumOnThread({ path: join(directory, 'missing'), byteCount: 10 }),
    ).rejects.toThrow(/snapshot checksum thread: ENOENT/);
  });
});
