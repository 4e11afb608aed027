import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface InstallStep {
  /** What the user sees, e.g. "compiling the client-go peer". */
  label: string;
  command: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
}

const HEARTBEAT_MS = 10_000;
const KEPT_LINES = 40;

/**
 * Runs one installation command (go build, pip install) with progress on the console: a line when
 * it starts, one every 10 s naming the elapsed time and the command's latest output, one when it
 * is done. A failure or a timeout throws with the command's last lines.
 */
export async function runInstallStep(
  step: InstallStep,
  log: (line: string) => void,
): Promise<void> {
  const started = Date.now();
  log(`${step.label} …`);
  const child = spawn(step.command, step.args, {
    cwd: step.cwd,
    env: step.env ?? process.env,
    // Same process group as the runner: Ctrl-C stops an install too.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const recent: string[] = [];
  const remember = (line: string) => {
    if (!line.trim()) return;
    recent.push(line);
    if (recent.length > KEPT_LINES) recent.shift();
  };
  createInterface({ input: child.stdout }).on('line', remember);
  createInterface({ input: child.stderr }).on('line', remember);

  const heartbeat = setInterval(() => {
    const latest = recent.at(-1)?.slice(0, 100) ?? 'no output yet';
    log(`  … ${seconds(Date.now() - started)} (${latest})`);
  }, HEARTBEAT_MS);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, step.timeoutMs);

  const outcome = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  clearInterval(heartbeat);
  clearTimeout(timer);

  if (outcome.code === 0) {
    log(`${step.label}: done in ${seconds(Date.now() - started)}`);
    return;
  }
  const reason = timedOut
    ? `timed out after ${seconds(step.timeoutMs)}`
    : (outcome.error?.message ?? `exited with code ${outcome.code}`);
  throw new Error(
    `${step.label} failed (${step.command} ${step.args.join(' ')}: ${reason})\n${recent.join('\n')}`,
  );
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
