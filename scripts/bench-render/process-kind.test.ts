import { spawn } from 'node:child_process';
import { processKindOf, readCommandLine } from './process-kind';

describe('processKindOf', () => {
  test.each([
    ['/usr/lib/chromium/chromium-headless-shell --no-sandbox --remote-debugging-pipe', 'browser'],
    ['/usr/lib/chromium/chromium --headless=new', 'browser'],
    ['/opt/headless_shell/headless_shell --no-sandbox', 'browser'],
    // A renderer after it renamed itself: /proc/<pid>/cmdline is then one string.
    [
      '/usr/lib/chromium/chromium-headless-shell --type=renderer --renderer-client-id=7',
      'renderer',
    ],
    ['/usr/lib/chromium/chromium --type=gpu-process --disable-gpu', 'gpu'],
    [
      '/usr/lib/chromium/chromium --type=utility --utility-sub-type=network.mojom.NetworkService',
      'utility',
    ],
    ['/usr/lib/chromium/chromium-headless-shell --type=zygote --no-zygote-sandbox', 'zygote'],
    ['/usr/lib/chromium/chrome_crashpad_handler --type=crashpad-handler', 'other'],
    ['unshare --pid --fork --kill-child /usr/lib/chromium/chromium', 'other'],
    // A `--type=` that is only part of another argument is not the process type.
    ['/usr/lib/chromium/chromium --user-data-dir=/tmp/x--type=renderer', 'browser'],
    ['', 'other'],
  ])('%j is a %s process', (commandLine, kind) => {
    expect(processKindOf(commandLine)).toBe(kind);
  });
});

describe('readCommandLine', () => {
  test('reads a running process, NULs as spaces, and nothing once it has exited', async () => {
    const child = spawn('sleep', ['30', '31'], { stdio: 'ignore' });
    try {
      expect(readCommandLine(child.pid as number)).toBe('sleep 30 31');
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    // Reaped: the pid names no process (or, rarely, a new one that is not this `sleep`).
    expect(readCommandLine(child.pid as number)).not.toBe('sleep 30 31');
  });
});
