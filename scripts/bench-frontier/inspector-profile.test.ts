import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { freeLoopbackPort, profileWhile } from './inspector-profile';

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string } }>;
  samples: number[];
}

/** Resolves once `stream` has printed `text` (or rejects after `timeoutMs`). */
async function waitForOutput(
  stream: NodeJS.ReadableStream | null,
  text: string,
  timeoutMs: number,
): Promise<string> {
  let output = '';
  stream?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (const deadline = Date.now() + timeoutMs; !output.includes(text);) {
    if (Date.now() > deadline) throw new Error(`no "${text}" within ${timeoutMs} ms: ${output}`);
    await delay(20);
  }
  return output;
}

/**
 * A Node process spinning in a named function most of the time, its inspector on `port`; resolves
 * once the function has run (a loaded machine may take a while to get the child that far).
 */
async function startBusyProcess(port: number): Promise<ChildProcess> {
  const script = `
    function spinForTheProfiler() { const end = Date.now() + 20; while (Date.now() < end); }
    let isAnnounced = false;
    setInterval(() => {
      spinForTheProfiler();
      if (!isAnnounced) { isAnnounced = true; console.log('spinning'); }
    }, 1);
    setTimeout(() => process.exit(0), 30000);`;
  const child = spawn(process.execPath, [`--inspect=127.0.0.1:${port}`, '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The inspector announces itself on stderr once it listens.
  await Promise.all([
    waitForOutput(child.stderr, 'Debugger listening', 20_000),
    waitForOutput(child.stdout, 'spinning', 20_000),
  ]);
  return child;
}

describe('profileWhile', () => {
  let child: ChildProcess | undefined;
  afterEach(async () => {
    const running = child;
    child = undefined;
    if (running !== undefined && running.exitCode === null && running.signalCode === null) {
      const exited = once(running, 'exit');
      running.kill('SIGKILL');
      await exited;
    }
  });

  it("profiles the other process's main thread for the window of the work it runs", async () => {
    const port = await freeLoopbackPort();
    child = await startBusyProcess(port);
    const { result, profile } = await profileWhile(port, async () => {
      await delay(500);
      return 'worked';
    });
    expect(result).toBe('worked');
    const { nodes, samples } = profile as CpuProfile;
    expect(samples.length).toBeGreaterThan(20);
    const busy = new Set(
      nodes.filter((node) => node.callFrame.functionName === 'spinForTheProfiler').map((n) => n.id),
    );
    // The child spends nearly all its time in the named function; a loaded machine takes some of
    // the window away from it, not most.
    const busyShare = samples.filter((id) => busy.has(id)).length / samples.length;
    expect(busyShare).toBeGreaterThan(0.2);
  });

  it('answers a loopback port nothing listens on', async () => {
    const port = await freeLoopbackPort();
    expect(port).toBeGreaterThan(0);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });
});
