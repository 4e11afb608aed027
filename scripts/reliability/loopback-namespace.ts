import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Set in the environment of a command re-run inside its namespace. */
const MARKER_VARIABLE = 'RELIABILITY_LOOPBACK_NAMESPACE';

/** The network interfaces of this process's namespace (/proc/self/net, unlike /sys, follows it). */
function networkInterfaces(): string[] {
  return readFileSync('/proc/self/net/dev', 'utf8')
    .split('\n')
    .slice(2)
    .map((line) => line.split(':')[0].trim())
    .filter((name) => name !== '')
    .sort();
}

/** `unshare` flags that work here: as root a network namespace; otherwise inside a user namespace. */
function namespaceFlags(): string[] | undefined {
  for (const flags of [['--net'], ['--user', '--map-root-user', '--net']]) {
    if (spawnSync('unshare', [...flags, 'true'], { stdio: 'ignore' }).status === 0) return flags;
  }
  return undefined;
}

/**
 * Fuzzing and drills make the downloader fetch URLs it did not choose. Every process of such a
 * run — the services, the fuzzer, the origin — therefore runs in a private network namespace
 * whose only interface is loopback (`unshare -n`, then `ip link set lo up`): whatever URL a fuzzer
 * invents, nothing can leave the machine. (127.0.0.0/8 is all loopback, so the demo site's
 * 127.0.0.2–4 work inside.)
 *
 * Called first thing by such a command: outside the namespace it re-runs the same script inside
 * one and exits with its exit code; inside, it checks that loopback really is the only
 * interface and returns.
 */
export function runInsideLoopbackNamespace(scriptPath: string): void {
  if (process.env[MARKER_VARIABLE] === '1') {
    const interfaces = networkInterfaces();
    if (interfaces.join(',') !== 'lo') {
      console.error(
        `refusing to run: this namespace has network interfaces ${interfaces.join(', ')}`,
      );
      process.exit(2);
    }
    return;
  }
  const unshareFlags = namespaceFlags();
  if (unshareFlags === undefined) {
    console.error(
      'could not create a loopback-only network namespace: `unshare --net` needs root, or ' +
        'unprivileged user namespaces for `unshare --user --map-root-user --net`',
    );
    process.exit(2);
  }
  const result = spawnSync(
    'unshare',
    [
      ...unshareFlags,
      'bash',
      '-c',
      'ip link set lo up && exec "$@"',
      'bash',
      process.execPath,
      '--import',
      'tsx',
      scriptPath,
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit', env: { ...process.env, [MARKER_VARIABLE]: '1' } },
  );
  if (result.error !== undefined || result.status === null) {
    console.error(
      `could not create a loopback-only network namespace (unshare -n needs root or user namespaces): ${
        result.error?.message ?? `signal ${result.signal}`
      }`,
    );
    process.exit(2);
  }
  process.exit(result.status);
}

/**
 * A reliability command's entry: inside its loopback-only namespace (see above), runs `main` and
 * exits with its code — 2, with the stack, when it throws.
 */
export function runCommandInLoopbackNamespace(
  name: string,
  scriptPath: string,
  main: () => Promise<number>,
): void {
  runInsideLoopbackNamespace(scriptPath);
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(
        `${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exit(2);
    },
  );
}
