/**
 * npm run test:tikv-peers — the official TiKV clients against the project's TiKV test double.
 *
 * Builds or installs the peers on first use (client-go v2.0.4 from the Go module proxy; tikv-client
 * 0.0.4 and tikv-python 0.1.1 from PyPI; cached under .tools/tikv-peers), then runs each peer's
 * operation sequence against a fresh in-process double on loopback ports. Prints one line per peer
 * per operation (PASS/FAIL, with the gRPC methods the double received meanwhile) and a summary;
 * exits 1 on any failure. Bounded: 10 minutes per install step, 2 minutes per peer.
 *
 *   npm run test:tikv-peers [-- --peer client-go [--peer tikv-python]]
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startTikvTestDouble } from '../../services/common/storage/tikv/test-double/tikv-test-double';
import { PEERS, PeerDefinition } from './peer-catalogue';
import { OperationResult, runPeerSession } from './peer-session';
import {
  InstallOutcome,
  PeerToolchainPaths,
  ensureGoPeer,
  ensurePythonPeers,
  peerToolchainPaths,
} from './peer-toolchain';

const PEER_TIMEOUT_MS = 120_000;
const LOG_DIRECTORY = path.resolve(__dirname, '..', '..', '.data', 'tikv-peers');

const say = (line: string) => console.log(`[tikv-peers] ${line}`);

function selectedPeers(argv: string[]): PeerDefinition[] {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(
      `usage: npm run test:tikv-peers [-- --peer NAME ...]\npeers: ${PEERS.map((p) => p.name).join(', ')}`,
    );
    process.exit(0);
  }
  const names = argv.flatMap((arg, index) => (argv[index - 1] === '--peer' ? [arg] : []));
  const unknown = names.filter((name) => !PEERS.some((peer) => peer.name === name));
  if (unknown.length > 0 || argv.filter((arg) => arg === '--peer').length !== names.length) {
    throw new Error(
      `unknown peer ${unknown.join(', ')}; peers: ${PEERS.map((p) => p.name).join(', ')}`,
    );
  }
  return names.length === 0 ? [...PEERS] : PEERS.filter((peer) => names.includes(peer.name));
}

async function installToolchains(
  peers: PeerDefinition[],
  paths: PeerToolchainPaths,
): Promise<InstallOutcome[]> {
  const log = (line: string) => say(line);
  const outcomes: InstallOutcome[] = [];
  if (peers.some((peer) => peer.toolchain === 'go')) outcomes.push(await ensureGoPeer(paths, log));
  if (peers.some((peer) => peer.toolchain === 'python')) {
    outcomes.push(await ensurePythonPeers(paths, log));
  }
  for (const outcome of outcomes) {
    const state = outcome.cached ? 'cached' : 'installed';
    say(`${outcome.toolchain} peers ${state} (${(outcome.durationMs / 1000).toFixed(1)} s)`);
  }
  return outcomes;
}

function formatResult(peer: string, result: OperationResult): string {
  const wire = result.wire.length > 0 ? `  [${result.wire.join(' ')}]` : '';
  const detail = result.detail ? `  ${result.detail}` : '';
  return `  ${peer.padEnd(12)} ${result.operation.padEnd(15)} ${result.status}${detail}${wire}`;
}

async function runPeer(
  peer: PeerDefinition,
  paths: PeerToolchainPaths,
): Promise<OperationResult[]> {
  say(`${peer.name}: ${peer.source}${peer.limits ? ` — ${peer.limits}` : ''}`);
  const double = await startTikvTestDouble();
  const logFile = path.join(LOG_DIRECTORY, `${peer.name}.log`);
  try {
    const outcome = await runPeerSession({
      peer,
      launch: peer.launch(paths, double.pdEndpoints),
      double,
      logFile,
      timeoutMs: PEER_TIMEOUT_MS,
      onResult: (result) => console.log(formatResult(peer.name, result)),
    });
    const failed = outcome.results.filter((result) => result.status === 'FAIL').length;
    const ending = outcome.timedOut ? 'timed out' : `exit code ${outcome.exitCode}`;
    say(
      `${peer.name}: ${outcome.results.length - failed} passed, ${failed} failed in ` +
        `${(outcome.durationMs / 1000).toFixed(1)} s (${ending})` +
        (failed > 0 || outcome.exitCode !== 0 ? `; its log: ${logFile}` : ''),
    );
    if (outcome.exitCode !== 0 && failed === 0) {
      // Every operation passed but the program failed: count that as a failure of its own.
      return [...outcome.results, { operation: 'exit', status: 'FAIL', detail: ending, wire: [] }];
    }
    return outcome.results;
  } finally {
    await double.stop();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const peers = selectedPeers(process.argv.slice(2));
  const paths = peerToolchainPaths();
  mkdirSync(LOG_DIRECTORY, { recursive: true });
  await installToolchains(peers, paths);

  const results: Array<{ peer: string; result: OperationResult }> = [];
  for (const peer of peers) {
    for (const result of await runPeer(peer, paths)) results.push({ peer: peer.name, result });
  }

  const failures = results.filter(({ result }) => result.status === 'FAIL');
  say(`summary (${((Date.now() - started) / 1000).toFixed(1)} s):`);
  for (const peer of peers) {
    const own = results.filter((entry) => entry.peer === peer.name);
    const passed = own.filter(({ result }) => result.status === 'PASS').map((e) => e.result);
    say(
      `  ${peer.name.padEnd(12)} ${passed.length}/${own.length} PASS: ${passed.map((r) => r.operation).join(' ')}`,
    );
  }
  for (const { peer, result } of failures) console.log(formatResult(peer, result));
  console.log(`tikv-peers: ${results.length - failures.length} passed, ${failures.length} failed`);
  process.exitCode = failures.length > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(`[tikv-peers] ${error instanceof Error ? error.message : String(error)}`);
  console.log('tikv-peers: 0 passed, 1 failed');
  process.exitCode = 1;
});
