import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PROFILE_PREFIX = 'chromium-';
/**
 * A closed browser's helpers may still be exiting (and writing) for a moment on a loaded machine:
 * rm retries ENOTEMPTY/EBUSY with a growing pause (100 ms, 200 ms, …; about 5.5 s in all).
 */
const REMOVE_OPTIONS = { recursive: true, force: true, maxRetries: 10, retryDelay: 100 } as const;

/**
 * Where Chromium's files live: one fresh profile directory per browser generation, removed when
 * the generation closes, and one temporary directory (Chromium's TMPDIR) for all of them.
 *
 * A service keeps its profiles under its data directory (`<data dir>/downloader/browser-profiles`),
 * never in /tmp: a downloader killed with SIGKILL cannot remove the profile of the browser it was
 * running, so the next start removes every profile found there ("swept") before it launches a
 * browser. That is safe because one downloader runs per data directory (README).
 *
 * Chromium also writes to TMPDIR: the directory of its singleton socket
 * (`org.chromium.Chromium.XXXXXX`, made before the profile links to it, so a kill at the wrong
 * moment leaves it unattributable) and, with --disable-dev-shm-usage, its shared-memory files.
 * A socket path may not exceed 108 bytes — which is why Chromium keeps the socket out of the
 * profile — so its TMPDIR is not under the data directory either, but a short directory of this
 * root's own (`<os tmp>/chromium-<hash of the root>`), emptied at start and removed at stop.
 *
 * Without a data directory (benchmarks, engine tests) profiles and TMPDIR go to a temporary root
 * of their own, removed whole on dispose().
 */
export class BrowserProfiles {
  private constructor(
    readonly root: string,
    /** Chromium's TMPDIR. */
    readonly temporaryDirectory: string,
    /** Profiles of an earlier run removed at start. */
    readonly sweptCount: number,
    private readonly isTemporaryRoot: boolean,
  ) {}

  /** The root under a data directory, emptied of what an earlier (killed) run left. */
  static async underDataDirectory(root: string): Promise<BrowserProfiles> {
    await mkdir(root, { recursive: true });
    const leftovers = await readdir(root);
    await Promise.all(leftovers.map((name) => rm(join(root, name), REMOVE_OPTIONS)));
    const rootHash = createHash('sha256').update(root).digest('hex').slice(0, 10);
    const temporaryDirectory = join(tmpdir(), `chromium-${rootHash}`);
    await rm(temporaryDirectory, REMOVE_OPTIONS);
    await mkdir(temporaryDirectory, { mode: 0o700 });
    return new BrowserProfiles(root, temporaryDirectory, leftovers.length, false);
  }

  /** A private temporary root, for an engine without a data directory. */
  static async temporary(): Promise<BrowserProfiles> {
    const root = await mkdtemp(join(tmpdir(), 'render-engine-profiles-'));
    const temporaryDirectory = join(root, 'tmp');
    await mkdir(temporaryDirectory);
    return new BrowserProfiles(root, temporaryDirectory, 0, true);
  }

  /** A new, empty profile directory. */
  create(): Promise<string> {
    return mkdtemp(join(this.root, PROFILE_PREFIX));
  }

  async remove(profileDirectory: string): Promise<void> {
    await rm(profileDirectory, REMOVE_OPTIONS);
  }

  /** Removes Chromium's TMPDIR, and the root itself when it is a temporary one. */
  async dispose(): Promise<void> {
    await rm(this.temporaryDirectory, REMOVE_OPTIONS);
    if (this.isTemporaryRoot) await rm(this.root, REMOVE_OPTIONS);
  }
}
