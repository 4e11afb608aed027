import { MessageChannel } from 'node:worker_threads';
import { ThreadCalls } from './thread-calls';

/** Two ThreadCalls over a real message channel: values cross as structured clones. */
function connectedPair(): { left: ThreadCalls; right: ThreadCalls; close: () => void } {
  const channel = new MessageChannel();
  return {
    left: new ThreadCalls(channel.port1),
    right: new ThreadCalls(channel.port2),
    close: () => {
      channel.port1.close();
      channel.port2.close();
    },
  };
}

describe('ThreadCalls', () => {
  let pair: ReturnType<typeof connectedPair>;
  beforeEach(() => {
    pair = connectedPair();
  });
  afterEach(() => pair.close());

  it("answers a call with the other side's handler value, sync or async, as a copy", async () => {
    const payload = { items: [1, 2, 3] };
    pair.right.handle('sum', (received: { items: number[] }) => {
      received.items.push(4);
      return received.items.reduce((sum, item) => sum + item, 0);
    });
    pair.right.handle('later', async (text: string) => `${text}!`);
    await expect(pair.left.call('sum', payload)).resolves.toBe(10);
    await expect(pair.left.call('later', 'done')).resolves.toBe('done!');
    // The handler changed its own copy, not the caller's object.
    expect(payload.items).toEqual([1, 2, 3]);
  });

  it('answers calls in flight together by their own ids', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    pair.right.handle('slow', async () => {
      await gate;
      return 'slow';
    });
    pair.right.handle('fast', () => 'fast');
    const slow = pair.left.call('slow');
    await expect(pair.left.call('fast')).resolves.toBe('fast');
    release();
    await expect(slow).resolves.toBe('slow');
  });

  it("rejects with the handler's message and stack when it throws", async () => {
    pair.right.handle('fails', () => {
      throw new Error('no such thing');
    });
    const error = (await pair.left.call('fails').catch((caught: unknown) => caught)) as Error;
    expect(error.message).toBe('no such thing');
    expect(error.stack).toContain('thread-calls.test.ts');
  });

  it('rejects a call nobody handles, and one whose answer cannot be cloned', async () => {
    await expect(pair.left.call('nobody')).rejects.toThrow('no handler for thread call nobody');
    pair.right.handle('function', () => () => 1);
    await expect(pair.left.call('function')).rejects.toThrow('thread call function:');
  });

  it('delivers notices to their handler without an answer', async () => {
    const received: unknown[] = [];
    const arrived = new Promise<void>((resolve) =>
      pair.right.handle('note', (payload: unknown) => {
        received.push(payload);
        resolve();
      }),
    );
    pair.left.notify('note', { n: 1 });
    await arrived;
    expect(received).toEqual([{ n: 1 }]);
  });

  it('rejects the calls in flight and every later one once told the other side is gone', async () => {
    pair.right.handle('never', () => new Promise(() => undefined));
    const pending = pair.left.call('never');
    pair.left.failAll(new Error('thread exited'));
    await expect(pending).rejects.toThrow('thread exited');
    await expect(pair.left.call('never')).rejects.toThrow('thread exited');
  });
});
