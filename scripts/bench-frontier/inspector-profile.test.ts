import {
  startSupervisedProcess,
  stopSupervisedProcesses,
  type SupervisedProcess,
} from '../../services/common/process/child-process-supervisor';
import { freeLoopbackPort } from '../../services/common/testing/free-loopback-port';
import { profileWhile } from './inspector-profile';

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string } }>;
  samples: number[];
}

const READY_LINE = /^port (\d+) ready$/;

/**
 * A Node process with its inspector on `port` and an HTTP server that spins in a named function for
 * 300 ms per request: the test asks for the spin inside the profiled window, so the window holds it
 * however slowly a loaded machine runs either process. The inspector listens before the script
 * runs, so the ready line comes after it. Resolves with the server's port.
 */
async function startSpinningServer(
  port: number,
): Promise<{ supervised: SupervisedProcess; httpPort: number }> {
  const script = `
    function spinForTheProfiler() { const end = Date.now() + 300; while (Date.now() < end); }
    const server = require('node:http').createServer((request, response) => {
      spinForTheProfiler();
      response.end('spun');
    });
    server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port + ' ready'));
    setTimeout(() => process.exit(0), 30000);`;
  let httpPort = 0;
  const supervised = await startSupervisedProcess({
    name: 'spinning server',
    command: process.execPath,
    argumentList: [`--inspect=127.0.0.1:${port}`, '-e', script],
    environment: process.env,
    isReadyLine: (line) => READY_LINE.test(line),
    onLine: (_name, line) => (httpPort = Number(READY_LINE.exec(line)?.[1] ?? httpPort)),
    readyTimeoutMs: 20_000,
  });
  return { supervised, httpPort };
}

describe('profileWhile', () => {
  const started: SupervisedProcess[] = [];
  afterEach(() => stopSupervisedProcesses(started.splice(0), 1000));

  it("profiles the other process's main thread for the window of the work it runs", async () => {
    const port = await freeLoopbackPort();
    const { supervised, httpPort } = await startSpinningServer(port);
    started.push(supervised);
    const { result, profile } = await profileWhile(port, async () =>
      (await fetch(`http://127.0.0.1:${httpPort}/`)).text(),
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
});
