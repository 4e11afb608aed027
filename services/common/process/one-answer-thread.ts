import { parentPort, workerData, type TransferListItem } from 'node:worker_threads';
import { startWorkerThread } from './worker-thread-entry';

/** What a thread started by valueOfThread posts once: its value, or why it has none. */
export type ThreadAnswer<V> = { value: V } | { error: string };

/**
 * Starts the thread at `pathWithoutExtension` (a module that calls answerStarter) with
 * `workerData`, resolves to the value it answers and ends it; rejects with the error it answers, or
 * when it fails or exits without an answer. `what` names it in those errors. For a piece of
 * start-up work that runs on the other core while this thread does its own.
 */
export function valueOfThread<V>(
  pathWithoutExtension: string,
  data: unknown,
  what: string,
): Promise<V> {
  return new Promise<V>((resolve, reject) => {
    const worker = startWorkerThread(pathWithoutExtension, { workerData: data });
    worker.once('message', (answer: ThreadAnswer<V>) => {
      if ('value' in answer) resolve(answer.value);
      else reject(new Error(`${what} thread: ${answer.error}`));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`${what} thread exited (${code})`)));
  });
}

/**
 * In a thread valueOfThread started: answers `compute` of its workerData, or the error it threw.
 * `transferOf` names the buffers of the value to move to the starter instead of copying them.
 */
export function answerStarter<V>(
  compute: (data: unknown) => V,
  transferOf: (value: V) => TransferListItem[] = () => [],
): void {
  let answer: ThreadAnswer<V>;
  let transfer: TransferListItem[] = [];
  try {
    const value = compute(workerData);
    answer = { value };
    transfer = transferOf(value);
  } catch (error) {
    answer = { error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer, transfer);
}
