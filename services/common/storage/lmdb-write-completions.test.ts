import { LmdbWriteCompletions } from './lmdb-write-completions';

/** A promise settled by hand. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

/** Whether `promise` has settled after the microtasks queued so far ran. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

test('settles only once every distinct write promise has, however often each was added', async () => {
  const first = deferred();
  const second = deferred();
  const completions = new LmdbWriteCompletions();
  for (let index = 0; index < 10_000; index += 1) completions.add(first.promise);
  completions.add(undefined);
  completions.add(second.promise);
  completions.add(second.promise);
  // A transaction's promise may come round again after another one's (two databases, one writer).
  completions.add(first.promise);
  const settled = completions.settled();
  first.resolve();
  expect(await isSettled(settled)).toBe(false);
  second.resolve();
  await expect(settled).resolves.toBeUndefined();
});

test('rejects when any write failed', async () => {
  const completions = new LmdbWriteCompletions();
  completions.add(Promise.resolve(true));
  completions.add(Promise.reject(new Error('MDB_MAP_FULL')));
  completions.add(Promise.resolve(true));
  await expect(completions.settled()).rejects.toThrow('MDB_MAP_FULL');
});

test('resolves at once when no write was needed', async () => {
  const completions = new LmdbWriteCompletions();
  completions.add(undefined);
  await expect(completions.settled()).resolves.toBeUndefined();
});
