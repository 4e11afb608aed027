import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';

/**
 * The two ends of a crash test: a child that writes and prints a line for each write acknowledged,
 * and a parent that reads those lines and kills the child with SIGKILL when it chooses.
 */

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Child side: writes all of `line` to stdout before returning, so that an acknowledgement printed
 * is in the pipe even if the process dies next. The parent's end is a non-blocking pipe: when the
 * parent reads slower than the child acknowledges, writeSync fails with EAGAIN instead of blocking
 * — wait for room and write the rest, so no line is lost or cut (a thrown EAGAIN once ended a
 * writer before its kill).
 */
export function writeLineBlocking(line: string): void {
  let remaining = Buffer.from(`${line}\n`);
  while (remaining.length > 0) {
    try {
      remaining = remaining.subarray(writeSync(1, remaining));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(PAUSE, 0, 0, 1); // 1 ms: the parent drains the pipe meanwhile
    }
  }
}

export interface KilledChild {
  signal: NodeJS.Signals | null;
  errorOutput: string;
}

/**
 * Parent side: runs the TypeScript `script` with `args`, hands `onLine` every whole line it prints
 * (a line cut by the kill is not one) with a `kill(delayMs)` that sends SIGKILL once, after that
 * delay; kills it anyway after `deadlineMs`. Resolves once the child is gone and its pipes drained,
 * so every line it wrote has been handed over.
 */
export function runChildUntilKilled(
  script: string,
  args: readonly string[],
  onLine: (line: string, kill: (delayMs?: number) => void) => void,
  deadlineMs: number,
): Promise<KilledChild> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--require', require.resolve('tsx/cjs'), script, ...args],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let pending = '';
    let errorOutput = '';
    let isKilling = false;
    const kill = (delayMs = 0) => {
      if (isKilling) return;
      isKilling = true;
      setTimeout(() => child.kill('SIGKILL'), delayMs);
    };
    const guard = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.stderr.on('data', (chunk: Buffer) => (errorOutput += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine(line, kill);
    });
    child.on('error', reject);
    // 'close' fires after the pipes drained, so every line the child wrote has been read.
    child.on('close', (_code, signal) => {
      clearTimeout(guard);
      resolve({ signal, errorOutput });
    });
  });
}
