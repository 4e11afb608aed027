import type { ChildProcess } from 'node:child_process';
import type { ServiceName } from '../storage/service-name';
import {
  startSupervisedProcess,
  stopSupervisedProcesses,
} from '../process/child-process-supervisor';
import {
  isListeningLine,
  readListeningUrl,
  serviceEntryPoint,
} from '../process/service-entry-point';

export interface StartedServiceProcess {
  child: ChildProcess;
  url: string;
  /** Every JSON log line the process printed so far, and any other output line (level 40). */
  logLines: Array<Record<string, unknown>>;
  /** SIGTERM, then wait for the exit code (SIGKILL after `graceMs`). */
  stop: (graceMs?: number) => Promise<number | null>;
}

/**
 * The level the started process logs at: readiness is its "service listening" line, logged at
 * info, so a quieter level — such as the `silent` a test harness sets in this process's own
 * environment as a side effect of being imported — would leave it never ready. Only a more
 * talkative level is passed through.
 */
function readyLineLogLevel(level: string | undefined): string {
  return level === 'debug' || level === 'trace' ? level : 'info';
}

/**
 * Starts `services/<service>/main` as its own process on an ephemeral loopback port and resolves
 * once it logs "service listening" with its URL.
 */
export async function startServiceProcess(
  service: ServiceName,
  argumentList: string[],
  environment: NodeJS.ProcessEnv,
  readyTimeoutMs = 20_000,
  /**
   * Flags for Node itself, before the entry point (e.g. `--cpu-prof`, which NODE_OPTIONS refuses)
   * and after the service's own, which they override (serviceEntryPoint).
   */
  nodeArgumentList: readonly string[] = [],
  /** Another source tree to run the service from (default: this one). */
  sourceRoot?: string,
): Promise<StartedServiceProcess> {
  const logLines: Array<Record<string, unknown>> = [];
  let url = '';
  const entry = serviceEntryPoint(service, sourceRoot, nodeArgumentList);
  const supervised = await startSupervisedProcess({
    name: service,
    command: entry.command,
    argumentList: [...entry.argumentList, '--port', '0', ...argumentList],
    environment: {
      ...process.env,
      ...environment,
      LOG_LEVEL: readyLineLogLevel(environment.LOG_LEVEL ?? process.env.LOG_LEVEL),
    },
    readyTimeoutMs,
    isReadyLine: (line) => {
      if (!isListeningLine(line)) return false;
      url = readListeningUrl(line);
      return true;
    },
    onLine: (_name, line) => {
      if (line.startsWith('{')) {
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      } else if (line.trim() !== '') {
        // Not pino's: Node's own report of a crash (an unhandled rejection's stack on stderr) or a
        // library writing to the console. Kept at warn level, so a test that shows what a process
        // complained of on a non-zero exit shows this too.
        logLines.push({ level: 40, msg: 'output outside the log', line });
      }
    },
  });
  return {
    child: supervised.child,
    url,
    logLines,
    stop: async (graceMs = 10_000) => {
      await stopSupervisedProcesses([supervised], graceMs);
      return supervised.child.exitCode;
    },
  };
}

/**
 * Stops `services` last-started first, and empties the list: each service's clients stop while
 * what they call still answers. Stopped together, a downloader retried its finished reports
 * against a stopped scheduler until it was killed after the grace period, leaving Chromium's
 * TMPDIR (`/tmp/chromium-<hash>`) behind.
 */
export async function stopLastStartedFirst(services: StartedServiceProcess[]): Promise<void> {
  for (const service of services.splice(0).reverse()) await service.stop();
}
