import { parentPort, workerData } from 'node:worker_threads';
import { checksumOfPath, type ChecksumAnswer, type ChecksumRequest } from './snapshot-checksum';

/** The thread checksumOnThread starts: one checksum, answered, then the thread ends. */
let answer: ChecksumAnswer;
try {
  answer = { checksum: checksumOfPath(workerData as ChecksumRequest) };
} catch (error) {
  answer = { error: error instanceof Error ? error.message : String(error) };
}
parentPort?.postMessage(answer);
