import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

/** A pino logger whose lines are kept in memory, for asserting what a component logged. */
export function createCapturingLogger(level = 'debug'): {
  logger: Logger;
  lines: () => Array<Record<string, unknown>>;
} {
  const captured: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      captured.push(chunk.toString('utf8'));
      callback();
    },
  });
  const logger = pino({ level }, stream);
  return {
    logger,
    lines: () =>
      captured
        .join('')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
