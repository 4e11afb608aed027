import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface SupervisedProcess {
  name: string;
  child: ChildProcess;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

export interface StartOptions {
  name: string;
  command: string;
  argumentList: string[];
  environment: NodeJS.ProcessEnv;
  /** Resolves the start once a stdout line satisfies it (e.g. the "service listening" log). */
  isReadyLine: (line: string) => boolean;
  /** Each stdout/stderr line, for the caller to show or keep. */
  onLine?: (name: string, line: string) => void;
  readyTimeoutMs?: number;
}

/**
 * Starts a child process and waits until it says it is ready; a process that exits first or does
 * not get ready in time is an error naming the process and its last output.
 */
export function startSupervisedProcess(options: StartOptions): Promise<SupervisedProcess> {
  const child = spawn(options.command, options.argumentList, {
    env: options.environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const recent: string[] = [];
  const remember = (line: string) => {
    recent.push(line);
    if (recent.length > 20) recent.shift();
    options.onLine?.(options.name, line);
  };
  createInterface({ input: child.stderr! }).on('line', remember);

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${options.name} was not ready within ${options.readyTimeoutMs ?? 30_000} ms:\n${recent.join('\n')}`,
        ),
      );
    }, options.readyTimeoutMs ?? 30_000);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited with code ${code}:\n${recent.join('\n')}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      remember(line);
      if (options.isReadyLine(line)) {
        clearTimeout(timer);
        resolve({ name: options.name, child, exited });
      }
    });
  });
}

/** SIGTERM to every process, then SIGKILL to those still alive after `graceMs`. */
export async function stopSupervisedProcesses(
  processes: SupervisedProcess[],
  graceMs = 15_000,
): Promise<void> {
  for (const supervised of processes) {
    if (supervised.child.exitCode === null) supervised.child.kill('SIGTERM');
  }
  const killer = setTimeout(() => {
    for (const supervised of processes) {
      if (supervised.child.exitCode === null) supervised.child.kill('SIGKILL');
    }
  }, graceMs);
  await Promise.all(processes.map((supervised) => supervised.exited));
  clearTimeout(killer);
}
