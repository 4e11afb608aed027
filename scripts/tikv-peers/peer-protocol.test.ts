import { answerError, parsePeerLine } from './peer-protocol';

describe('the peer line protocol', () => {
  it('reads the four requests and reports', () => {
    expect(parsePeerLine('@begin batch_put')).toEqual({ kind: 'begin', operation: 'batch_put' });
    expect(parsePeerLine('@pass put ')).toEqual({ kind: 'pass', operation: 'put', note: '' });
    expect(parsePeerLine('@pass store_recovery store used again after 1.2s')).toEqual({
      kind: 'pass',
      operation: 'store_recovery',
      note: 'store used again after 1.2s',
    });
    expect(parsePeerLine('@fail scan keys ["a"], want ["b"]')).toEqual({
      kind: 'fail',
      operation: 'scan',
      detail: 'keys ["a"], want ["b"]',
    });
    expect(parsePeerLine('@control hang-next-request-of 782f72')).toEqual({
      kind: 'control',
      command: 'hang-next-request-of',
      args: ['782f72'],
    });
  });

  it('gives a failure without detail a reason, and treats anything else as library output', () => {
    expect(parsePeerLine('@fail cas')).toEqual({
      kind: 'fail',
      operation: 'cas',
      detail: 'no detail given',
    });
    for (const line of ['[2026/11/30] [WARN] retrying', '@unknown x', '@pass', ' @pass put']) {
      expect(parsePeerLine(line)).toEqual({ kind: 'output', text: line });
    }
  });

  it('keeps an error answer on one line', () => {
    expect(answerError('no store\nleads key 78')).toBe('error no store leads key 78');
  });
});
