import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { DoubleRequestRecord } from '../../services/common/storage/tikv/test-double/double-request-log';
import { TikvTestDouble } from '../../services/common/storage/tikv/test-double/tikv-test-double';
import { PeerDefinition, PeerLaunch } from './peer-catalogue';
import { ANSWER_OK, answerError, parsePeerLine } from './peer-protocol';

export type OperationStatus = 'PASS' | 'FAIL';

export interface OperationResult {
  operation: string;
  status: OperationStatus;
  /** The peer's note on a PASS, the reason of a FAIL. */
  detail: string;
  /** Distinct gRPC methods the double received while the operation ran ("PD." for PD's). */
  wire: string[];
}

export interface SessionOptions {
  peer: PeerDefinition;
  launch: PeerLaunch;
  double: TikvTestDouble;
  /** Where the peer's own output (client library logs) goes. */
  logFile: string;
  timeoutMs: number;
  /** Called as each operation's result arrives, for live progress. */
  onResult: (result: OperationResult) => void;
}

export interface SessionOutcome {
  results: OperationResult[];
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
}

/**
 * Runs one peer program against a double: answers its "@begin" and "@control" requests, records
 * which methods reached the double during each operation, and turns every expected operation into
 * a PASS or FAIL — one the peer never reported (it crashed, hung or skipped it) is a FAIL too.
 * A peer that outlives `timeoutMs` is killed.
 */
export async function runPeerSession(options: SessionOptions): Promise<SessionOutcome> {
  const { peer, launch, double } = options;
  const started = Date.now();
  const log = createWriteStream(options.logFile);
  const child = spawn(launch.file, launch.args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    // Unbuffered: the protocol is line by line. No bytecode files in the source tree.
    env: { ...process.env, PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' },
  });
  child.stderr.pipe(log, { end: false });
  child.stdin.on('error', () => undefined); // the peer may exit before reading an answer

  const expected = new Map(peer.operations.map((operation) => [operation.name, operation]));
  const results = new Map<string, OperationResult>();
  let windowStart = 0;
  const settle = (result: OperationResult) => {
    if (results.has(result.operation)) return;
    results.set(result.operation, result);
    options.onResult(result);
  };
  const answer = (text: string) => child.stdin.write(`${text}\n`);

  // Lines are handled one at a time, in order: a control action finishes before the next line.
  let queue = Promise.resolve();
  createInterface({ input: child.stdout }).on('line', (line) => {
    queue = queue.then(async () => {
      const parsed = parsePeerLine(line);
      switch (parsed.kind) {
        case 'output':
          log.write(`${parsed.text}\n`);
          return;
        case 'begin':
          windowStart = double.requestLog.length;
          answer(ANSWER_OK);
          return;
        case 'control':
          answer(performControl(double, parsed.command, parsed.args));
          return;
        case 'pass':
        case 'fail': {
          const wire = receivedMethods(double.requestLog.slice(windowStart));
          settle(judge(expected.get(parsed.operation)?.wire, parsed, wire));
        }
      }
    });
  });

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  const exitCode = await new Promise<number | null>((resolve) => {
    child.once('error', (error) => {
      log.write(`could not start ${launch.file}: ${error.message}\n`);
      resolve(null);
    });
    child.once('close', (code) => resolve(code));
  });
  clearTimeout(timer);
  await queue;
  await new Promise((resolve) => log.end(resolve));

  const ending = timedOut
    ? `peer timed out after ${options.timeoutMs / 1000} s`
    : `peer exited with code ${exitCode}`;
  for (const operation of peer.operations) {
    settle({ operation: operation.name, status: 'FAIL', detail: `not run (${ending})`, wire: [] });
  }
  return {
    results: [...results.values()],
    exitCode,
    timedOut,
    durationMs: Date.now() - started,
  };
}

/** Distinct methods in arrival order; PD's are prefixed "PD." (both serve Health/Check). */
function receivedMethods(records: readonly DoubleRequestRecord[]): string[] {
  const names = records.map((record) =>
    record.target.startsWith('pd:') ? `PD.${record.method}` : record.method,
  );
  return [...new Set(names)];
}

function judge(
  requiredWire: readonly string[] | undefined,
  line: { kind: 'pass' | 'fail'; operation: string; note?: string; detail?: string },
  wire: string[],
): OperationResult {
  const base = { operation: line.operation, wire };
  if (line.kind === 'fail') return { ...base, status: 'FAIL', detail: line.detail ?? '' };
  if (requiredWire === undefined) {
    return { ...base, status: 'FAIL', detail: 'not an operation this peer is expected to run' };
  }
  const missing = requiredWire.filter((method) => !wire.includes(method));
  if (missing.length > 0) {
    const detail = `the peer said PASS, but the double never received ${missing.join(', ')}`;
    return { ...base, status: 'FAIL', detail };
  }
  return { ...base, status: 'PASS', detail: line.note ?? '' };
}

/** What a peer may ask of the double; answers "ok" or "error <reason>". */
function performControl(double: TikvTestDouble, command: string, args: string[]): string {
  try {
    switch (command) {
      case 'advance-clock':
        double.advanceClock(positiveNumber(args[0]));
        return ANSWER_OK;
      case 'hang-next-request-of':
        double.makeStoreUnresponsive(leaderStoreOf(double, args[0]), 1);
        return ANSWER_OK;
      default:
        return answerError(`unknown control command ${command}`);
    }
  } catch (error) {
    return answerError((error as Error).message);
  }
}

function leaderStoreOf(double: TikvTestDouble, hexKey: string | undefined): string {
  if (!hexKey || !/^([0-9a-f]{2})+$/i.test(hexKey)) throw new Error('expected a hex-encoded key');
  const storeId = double.regionLeaderStoreOf(Buffer.from(hexKey, 'hex'));
  if (storeId === undefined) throw new Error(`no store leads the region of key ${hexKey}`);
  return storeId;
}

function positiveNumber(text: string | undefined): number {
  const value = Number(text);
  if (!(value > 0 && value <= 86_400))
    throw new Error(`expected seconds in (0, 86400], got ${text}`);
  return value;
}
