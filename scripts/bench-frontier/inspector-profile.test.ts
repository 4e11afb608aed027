import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { freeLoopbackPort, profileWhile } from './inspector-profile';

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string } }>;
  samples: number[];
}

/** A Node process spinning in a named function, its inspector on `port`. */
async function startBusyProcess(port: number): Promise<ChildProcess> {
  const script = `
    function spinForTheProfiler() { const end = Date.now() + 5; while (Date.now() < end); }
    setInterval(spinForTheProfiler, 1);
    setTimeout(() => process.exit(0), 20000);`;
  const child = spawn(process.execPath, [`--inspect=127.0.0.1:${port}`, '-e', script], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // The inspector announces itself on stderr once it listens.
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let attempt = 0; attempt < 100 && !stderr.includes('Debugger listening'); attempt += 1) {
    await delay(50);
  }
  if (!stderr.includes('Debugger listening')) throw new Error(`no inspector: ${stderr}`);
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
      await delay(300);
      return 'worked';
    });
    expect(result).toBe('worked');
    const { nodes, samples } = profile as CpuProfile;
    expect(samples.length).toBeGreaterThan(50);
    const busy = new Set(
      nodes.filter((node) => node.callFrame.functionName === 'spinForTheProfiler').map((n) => n.id),
    );
    // Most of the window was spent spinning in the named function.
    const busyShare = samples.filter((id) => busy.has(id)).length / samples.length;
    expect(busyShare).toBeGreaterThan(0.3);
  });

  it('answers a loopback port nothing listens on', async () => {
    const port = await freeLoopbackPort();
    expect(port).toBeGreaterThan(0);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });
});
