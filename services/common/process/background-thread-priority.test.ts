import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { threadNicenessOf } from '../testing/thread-niceness';
import { deprioritizeBackgroundThreads } from './background-thread-priority';

test('every thread but the main one gets the niceness; the event loop keeps its own', async () => {
  // A worker thread of our own, so there is at least one background thread we started.
  const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
  await new Promise((resolve) => worker.once('online', resolve));
  const before = threadNicenessOf('self');
  try {
    const mainBefore = before.get(process.pid);
    expect(deprioritizeBackgroundThreads(7)).toBeGreaterThan(0);
    const after = threadNicenessOf('self');
    expect(after.get(process.pid)).toBe(mainBefore);
    const background = [...after].filter(([threadId]) => threadId !== process.pid);
    expect(background.length).toBeGreaterThan(0);
    for (const [, niceness] of background) expect(niceness).toBeGreaterThanOrEqual(7);
    // Already there: nothing more to change.
    expect(deprioritizeBackgroundThreads(7)).toBe(0);
  } finally {
    await worker.terminate();
    // Back as they were for the test files this jest worker runs next (where allowed: root).
    for (const [threadId, niceness] of before) {
      try {
        setPriority(threadId, niceness);
      } catch {
        // not allowed, or the thread ended
      }
    }
  }
});
