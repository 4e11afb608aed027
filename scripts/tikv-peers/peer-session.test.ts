import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  TikvTestDouble,
  startTikvTestDouble,
} from '../../services/common/storage/tikv/test-double/tikv-test-double';
import { PeerDefinition } from './peer-catalogue';
import { OperationResult, runPeerSession } from './peer-session';

/**
 * The runner's judging, with stand-in peers written in a few lines of Node that speak the line
 * protocol: a PASS needs the operation's methods at the double, a missing or hung operation is a
 * FAIL, and controls are answered.
 */
describe('a peer session', () => {
  let double: TikvTestDouble;
  let directory: string;
  beforeEach(async () => {
    double = await startTikvTestDouble();
    directory = await mkdtemp(path.join(tmpdir(), 'peer-session-'));
  });
  afterEach(async () => {
    await double.stop();
    await rm(directory, { recursive: true, force: true });
  });

  /** A peer whose program is `body`, run with `ask(line)` (write, await the answer) in scope. */
  async function runStandIn(
    operations: PeerDefinition['operations'],
    body: string,
    timeoutMs = 10_000,
  ) {
    const program = `
      const lines = require('node:readline').createInterface({ input: process.stdin });
      const answers = lines[Symbol.asyncIterator]();
      const ask = async (line) => { console.log(line); return (await answers.next()).value; };
      (async () => { ${body} })().then(() => process.exit(0));
    `;
    const peer: PeerDefinition = {
      name: 'stand-in',
      source: 'test',
      toolchain: 'go',
      operations,
      launch: () => ({ file: process.execPath, args: ['-e', program] }),
    };
    const seen: OperationResult[] = [];
    const logFile = path.join(directory, 'stand-in.log');
    const outcome = await runPeerSession({
      peer,
      launch: peer.launch({} as never, double.pdEndpoints),
      double,
      logFile,
      timeoutMs,
      onResult: (result) => seen.push(result),
    });
    const byName = Object.fromEntries(outcome.results.map((r) => [r.operation, r]));
    return { outcome, seen, byName, log: await readFile(logFile, 'utf8') };
  }

  it('passes an operation only if the double received its methods meanwhile', async () => {
    const { byName, log } = await runStandIn(
      [
        { name: 'quiet', wire: [] },
        { name: 'put', wire: ['RawPut'] },
      ],
      `
        await ask('@begin quiet'); console.log('library chatter'); console.log('@pass quiet took 1 ms');
        await ask('@begin put'); console.log('@pass put');
      `,
    );
    expect(byName.quiet).toMatchObject({ status: 'PASS', detail: 'took 1 ms' });
    expect(byName.put.status).toBe('FAIL');
    expect(byName.put.detail).toMatch(/never received RawPut/);
    expect(log).toContain('library chatter');
  });

  it('fails operations a peer reports as failed, never reports, or does not know', async () => {
    const { byName, outcome } = await runStandIn(
      [
        { name: 'first', wire: [] },
        { name: 'second', wire: [] },
      ],
      `
        await ask('@begin first'); console.log('@fail first values differ');
        console.log('@fail connect refused');
        process.exit(3);
      `,
    );
    expect(outcome.exitCode).toBe(3);
    expect(byName.first).toMatchObject({ status: 'FAIL', detail: 'values differ' });
    expect(byName.connect).toMatchObject({ status: 'FAIL', detail: 'refused' });
    expect(byName.second).toMatchObject({
      status: 'FAIL',
      detail: 'not run (peer exited with code 3)',
    });
  });

  it('answers controls, refusing unknown ones, and kills a peer that outlives its time', async () => {
    const { byName, outcome } = await runStandIn(
      [
        { name: 'controls', wire: [] },
        { name: 'never', wire: [] },
      ],
      `
        await ask('@begin controls');
        const clock = await ask('@control advance-clock 61');
        const bogus = await ask('@control reboot-cluster');
        const badKey = await ask('@control hang-next-request-of zz');
        console.log('@pass controls ' + [clock, bogus, badKey].join(' / '));
        await ask('@begin never');
        await new Promise(() => {}); // hangs
      `,
      1_500,
    );
    expect(byName.controls.detail).toBe(
      'ok / error unknown control command reboot-cluster / error expected a hex-encoded key',
    );
    expect(outcome.timedOut).toBe(true);
    expect(byName.never).toMatchObject({
      status: 'FAIL',
      detail: expect.stringMatching(/timed out/),
    });
  });
});
