import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lmdbAddonKindIn } from './lmdb-addon';

describe('lmdbAddonKindIn', () => {
  let packageDirectory: string;

  beforeEach(() => {
    packageDirectory = mkdtempSync(join(tmpdir(), 'lmdb-addon-'));
  });

  afterEach(() => {
    rmSync(packageDirectory, { recursive: true, force: true });
  });

  it('names the published prebuilt when the package holds no build of its own', () => {
    expect(lmdbAddonKindIn(packageDirectory, {})).toBe('published prebuilt (debug build)');
  });

  it('names the prebuilt when build/Release holds no addon (a build that failed half-way)', () => {
    mkdirSync(join(packageDirectory, 'build', 'Release'), { recursive: true });
    writeFileSync(join(packageDirectory, 'build', 'Release', 'lmdb.o'), '');
    expect(lmdbAddonKindIn(packageDirectory, {})).toBe('published prebuilt (debug build)');
  });

  it('names the release build when build/Release holds an addon, as lmdb-js loads it first', () => {
    mkdirSync(join(packageDirectory, 'build', 'Release'), { recursive: true });
    writeFileSync(join(packageDirectory, 'build', 'Release', 'lmdb.node'), '');
    expect(lmdbAddonKindIn(packageDirectory, {})).toBe('release build');
    // PREBUILDS_ONLY makes lmdb-js's loader skip build/ altogether.
    expect(lmdbAddonKindIn(packageDirectory, { PREBUILDS_ONLY: '1' })).toBe(
      'published prebuilt (debug build)',
    );
  });
});
