import { mkdir, mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

const PROFILE_PREFIX = 'chromium-';
const REMOVE_OPTIONS = { recursive: true, force: true, maxRetries: 3 } as const;
/** The directory Chromium creates in TMPDIR for a profile's singleton socket. */
const SINGLETON_DIRECTORY_NAME = /^org\.chromium\.Chromium\.[A-Za-z0-9]+$/;

/**
 * Where Chromium profiles live: one fresh directory per browser generation, removed when the
 * generation closes.
 *
 * A service keeps its profiles under its data directory (`<data dir>/downloader/browser-profiles`),
 * never in /tmp: a downloader killed with SIGKILL cannot remove the profile of the browser it
 * was running, so the next start removes every profile found there ("swept") before it launches
 * a browser. That is safe because one downloader runs per data directory (README). Without a
 * data directory (benchmarks, engine tests) the profiles go to a temporary root of their own,
 * removed whole on dispose().
 */
export class BrowserProfiles {
  private constructor(
    readonly root: string,
    /** Profiles of an earlier run removed at start. */
    readonly sweptCount: number,
    private readonly isTemporaryRoot: boolean,
  ) {}

  /** The root under a data directory, emptied of what an earlier (killed) run left. */
  static async underDataDirectory(root: string): Promise<BrowserProfiles> {
    await mkdir(root, { recursive: true });
    const leftovers = await readdir(root);
    await Promise.all(leftovers.map((name) => removeProfileDirectory(join(root, name))));
    return new BrowserProfiles(root, leftovers.length, false);
  }

  /** A private temporary root, for an engine without a data directory. */
  static async temporary(): Promise<BrowserProfiles> {
    return new BrowserProfiles(await mkdtemp(join(tmpdir(), 'render-engine-profiles-')), 0, true);
  }

  /** A new, empty profile directory. */
  create(): Promise<string> {
    return mkdtemp(join(this.root, PROFILE_PREFIX));
  }

  remove(profileDirectory: string): Promise<void> {
    return removeProfileDirectory(profileDirectory);
  }

  /** Removes the root itself when it is a temporary one (a data directory's root stays). */
  async dispose(): Promise<void> {
    if (this.isTemporaryRoot) await rm(this.root, REMOVE_OPTIONS);
  }
}

/**
 * Removes a profile and the singleton-socket directory Chromium made for it in TMPDIR
 * (`/tmp/org.chromium.Chromium.XXXXXX`, linked from the profile's `SingletonSocket`): a browser
 * that closes cleanly removes that directory itself, a killed one leaves it behind.
 */
async function removeProfileDirectory(profileDirectory: string): Promise<void> {
  const socketPath = await readlink(join(profileDirectory, 'SingletonSocket')).catch(() => '');
  const socketDirectory = dirname(socketPath);
  if (socketPath !== '' && SINGLETON_DIRECTORY_NAME.test(basename(socketDirectory))) {
    await rm(socketDirectory, REMOVE_OPTIONS);
  }
  await rm(profileDirectory, REMOVE_OPTIONS);
}
