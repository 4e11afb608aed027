/**
 * The line protocol between the runner and a peer program (Go: go/harness.go, Python:
 * python/peer_harness.py). A peer writes lines starting with "@" to stdout; "@begin" and
 * "@control" wait for the runner's answer on stdin, "ok" or "error <reason>":
 *
 *   @begin <operation>              about to run an operation (the runner marks its request log)
 *   @pass <operation> [note]        the operation behaved as TiKV would
 *   @fail <operation> <detail>      it did not, and why
 *   @control <command> [args...]    act on the double: advance-clock <seconds>,
 *                                   hang-next-request-of <hex key> (its store leaves the next
 *                                   request unanswered)
 *
 * Any other line is the client library talking and goes to the peer's log.
 */
export type PeerLine =
  | { kind: 'begin'; operation: string }
  | { kind: 'pass'; operation: string; note: string }
  | { kind: 'fail'; operation: string; detail: string }
  | { kind: 'control'; command: string; args: string[] }
  | { kind: 'output'; text: string };

export function parsePeerLine(line: string): PeerLine {
  const match = /^@(begin|pass|fail|control) +(\S+) *(.*)$/.exec(line.trimEnd());
  if (!match) return { kind: 'output', text: line };
  const [, kind, first, rest] = match;
  switch (kind) {
    case 'begin':
      return { kind, operation: first };
    case 'pass':
      return { kind, operation: first, note: rest };
    case 'fail':
      return { kind, operation: first, detail: rest || 'no detail given' };
    default:
      return { kind: 'control', command: first, args: rest ? rest.split(/ +/) : [] };
  }
}

export const ANSWER_OK = 'ok';

export function answerError(reason: string): string {
  return `error ${reason.replace(/\s+/g, ' ')}`;
}
