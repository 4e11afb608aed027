import { fork } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ContenderJob, ContenderMessage } from './contenders/contender-job';
import type { ContenderRun } from './contender-run';
import type { PageRecord } from './page-record';
import { ProcessTreeSampler } from './process-tree';

export interface ChildRunOptions {
  readonly label: string;
  /** The whole run, browser start and shutdown included; the process tree is killed after it. */
  readonly timeoutMs: number;
  readonly onRecord: (record: PageRecord) => void;
  /** Aborting kills the contender's process tree at once (Ctrl-C, another failure). */
  readonly signal: AbortSignal;
}

const CONTENDER_PROCESS_PATH = join(__dirname, 'contender-process.ts');
const OUTPUT_TAIL_LINES = 15;

/**
 * Runs one contender in its own Node process (TypeScript through tsx, one process as the services
 * use), samples the memory and CPU of its process tree while it runs, and guarantees that nothing of it
 * survives: on timeout, abort or crash every process seen in its tree is killed by pid.
 */
export async function runContenderInChildProcess(
  job: ContenderJob,
  options: ChildRunOptions,
): Promise<ContenderRun> {
  const child = fork(CONTENDER_PROCESS_PATH, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const outputTail: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream! }).on('line', (line) => {
      outputTail.push(line);
      if (outputTail.length > OUTPUT_TAIL_LINES) outputTail.shift();
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const sampler = new ProcessTreeSampler(child.pid as number).start();
  const records: PageRecord[] = [];
  let isDone = false;
  let error: string | undefined;
  const notes: string[] = [];
  child.on('message', (message: ContenderMessage) => {
    if (message.type === 'page') {
      records.push(message.record);
      options.onRecord(message.record);
    } else if (message.type === 'done') {
      isDone = true;
      notes.push(...(message.notes ?? []));
    } else {
      error = message.message;
    }
  });
  const stopEverything = (reason: string) => {
    error ??= reason;
    sampler.killSurvivors();
  };
  const timer = setTimeout(
    () => stopEverything(`did not finish within ${options.timeoutMs / 1000} s`),
    options.timeoutMs,
  );
  const onAbort = () => stopEverything('aborted');
  options.signal.addEventListener('abort', onAbort, { once: true });
  if (options.signal.aborted) onAbort();
  child.send(job);

  const exitCode = await exited;
  clearTimeout(timer);
  options.signal.removeEventListener('abort', onAbort);
  const usage = sampler.stop();
  // Chromium normally closes with its Node process; anything left (an orphaned renderer) goes now.
  sampler.killSurvivors();
  if (!isDone && error === undefined) error = `contender process exited with code ${exitCode}`;
  if (error !== undefined && outputTail.length > 0) {
    error += `\n  last output:\n    ${outputTail.join('\n    ')}`;
  }
  return { label: options.label, records, usage, error, notes };
}
