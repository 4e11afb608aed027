import { Writable } from 'node:stream';
import pino from 'pino';
import { requestMetaOf } from './request-meta';

/** A pino logger writing its lines into `lines`, with its child() calls counted. */
function countingLogger(lines: Array<Record<string, unknown>>) {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'debug' }, destination);
  const counted = { childCount: 0 };
  const child = logger.child.bind(logger);
  logger.child = ((...parameters: Parameters<typeof child>) => {
    counted.childCount += 1;
    return child(...parameters);
  }) as typeof logger.child;
  return { logger, counted };
}

describe('requestMetaOf', () => {
  it('makes no child logger for a request that logs nothing', () => {
    const { logger, counted } = countingLogger([]);
    const meta = requestMetaOf('r-1', null, logger, 'leaseTasks');
    expect(meta.requestId).toBe('r-1');
    expect(meta.caller).toBeNull();
    expect(counted.childCount).toBe(0);
  });

  it('makes one child on first use, bound to the request id and operation', () => {
    const lines: Array<Record<string, unknown>> = [];
    const { logger, counted } = countingLogger(lines);
    const meta = requestMetaOf('r-2', { tokenKind: 'service' }, logger, 'reportLease');
    meta.log.info('first');
    meta.log.warn('second');
    expect(counted.childCount).toBe(1);
    expect(meta.log).toBe(meta.log);
    expect(lines.map((line) => [line.msg, line.request_id, line.operation])).toEqual([
      ['first', 'r-2', 'reportLease'],
      ['second', 'r-2', 'reportLease'],
    ]);
  });
});
