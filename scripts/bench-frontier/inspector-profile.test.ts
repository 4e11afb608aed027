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
 * A Node process with its inspector on `port` and an HTTP server that spins in a named function for
 * 300 ms per request: the test asks for the spin inside the profiled window, so the window holds it
 * however slowly a loaded machine runs either process. Resolves with the server's port.
 */
async function startSpinningServer(
  port: number,
): Promise<{ child: ChildProcess; httpPort: number }> {
  const script = `
    function spinForTheProfiler() { const end = Date.now() + 300; while (Date.now() < end); }
    const server = require('node:http').createServer((request, response) => {
      spinForTheProfiler();
      response.end('spun');
    });
    server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port + ' ready'));
    setTimeout(() => process.exit(0), 30000);`;
  const child = spawn(process.execPath, [`--inspect=127.0.0.1:${port}`, '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The inspector announces itself on stderr once it listens.
  const [, stdout] = await Promise.all([
    waitForOutput(child.stderr, 'Debugger listening', 20_000),
    waitForOutput(child.stdout, 'ready', 20_000),
  ]);
  return { child, httpPort: Number(/port (\d+) ready/.exec(stdout)?.[1]) };
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
    const started = await startSpinningServer(port);
    child = started.child;
    const { result, profile } = await profileWhile(port, async () =>
      (await fetch(`http://127.0.0.1:${started.httpPort}/`)).text(),
    );
    expect(result).toBe('spun');
    const { nodes, samples } = profile as CpuProfile;
    const nameOf = new Map(nodes.map((node) => [node.id, node.callFrame.functionName]));
    const sampleCounts = new Map<string, number>();
    for (const id of samples) {
      const name = nameOf.get(id) ?? '';
      sampleCounts.set(name, (sampleCounts.get(name) ?? 0) + 1);
    }
    // The spin is what the window mostly held; the whole count says what else it held if not.
    const [busiest] = [...sampleCounts].sort((left, right) => right[1] - left[1]);
    expect({ busiest: busiest?.[0], sampleCounts }).toMatchObject({
      busiest: 'spinForTheProfiler',
    });
  });

  it('answers a loopback port nothing listens on', async () => {
    const port = await freeLoopbackPort();
    expect(port).toBeGreaterThan(0);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });
});
