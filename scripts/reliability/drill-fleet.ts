import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DownloaderClient } from '../../generated/downloader';
import type { StartedServiceProcess } from '../../services/common/testing/service-process';
import { isStillRunning, listProcessTree, type ProcessEntry } from '../bench-render/process-tree';
import { startService, type ServiceStart } from './system-under-test';

/** Settings every downloader of the drill runs with. */
export interface DrillDownloaderSettings {
  readonly leaseTtlSeconds: number;
  readonly pagePoolSize: number;
  readonly leaseTaskCount: number;
}

/** One downloader of the drill: a stable worker id and data directory across its restarts. */
export class DrillDownloader {
  process: StartedServiceProcess | undefined;
  /** Every run of this downloader so far (a restart is a new run on the same data). */
  private readonly runs: StartedServiceProcess[] = [];

  constructor(
    readonly workerId: string,
    private readonly start: ServiceStart,
    private readonly settings: DrillDownloaderSettings,
  ) {}

  get dataDirectory(): string {
    return join(this.start.workDirectory, this.workerId);
  }

  get profileRoot(): string {
    return join(this.dataDirectory, 'downloader', 'browser-profiles');
  }

  get client(): DownloaderClient {
    return new DownloaderClient({
      baseUrl: (this.process as StartedServiceProcess).url,
      token: this.start.tokens.downloader,
      maximumAttemptCount: 1,
    });
  }

  async launch(): Promise<void> {
    const process = await startService('downloader', this.start, {
      name: this.workerId,
      argumentList: [
        '--worker-id',
        this.workerId,
        '--lease-ttl-seconds',
        String(this.settings.leaseTtlSeconds),
        '--page-pool-size',
        String(this.settings.pagePoolSize),
        '--lease-task-count',
        String(this.settings.leaseTaskCount),
        '--lease-poll-interval-ms',
        '200',
      ],
    });
    this.process = process;
    this.runs.push(process);
  }

  /** Every JSON log line of every run. */
  get logLines(): Array<Record<string, unknown>> {
    return this.runs.flatMap((run) => run.logLines);
  }

  /** Keeps every run's JSON log lines in a file (for a look after a failed drill). */
  writeLog(path: string): void {
    writeFileSync(path, this.logLines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  }

  /** Profiles of killed runs that later starts found and removed. */
  get sweptProfileCount(): number {
    return this.logLines
      .filter((line) => line.msg === 'downloader core ready')
      .reduce((total, line) => total + Number(line.swept_browser_profile_count ?? 0), 0);
  }

  /** In-flight requests the downloader's rate-limit layer counts right now. */
  async inFlightCount(): Promise<number> {
    return (await this.client.listDomainRuntime({})).summary.in_flight_count;
  }

  /**
   * kill -9, then the Chromium processes that outlived it by `graceMs` (non-zombie survivors of
   * its process tree as it was just before the kill).
   */
  async killHard(graceMs: number): Promise<{ orphanCount: number; orphans: string[] }> {
    const process = this.process as StartedServiceProcess;
    const tree = listProcessTree(process.child.pid as number).slice(1);
    const exited = new Promise((resolve) => process.child.once('exit', resolve));
    process.child.kill('SIGKILL');
    await exited;
    this.process = undefined;
    await new Promise((resolve) => setTimeout(resolve, graceMs));
    const orphans = tree.filter(isStillRunning);
    for (const orphan of orphans) killQuietly(orphan);
    return { orphanCount: orphans.length, orphans: orphans.map(describeProcess) };
  }

  /** SIGTERM (a graceful stop); resolves with the exit code. */
  async stopGracefully(): Promise<number | null> {
    const process = this.process as StartedServiceProcess;
    this.process = undefined;
    return process.stop(20_000);
  }
}

function describeProcess(entry: ProcessEntry): string {
  try {
    return `${entry.pid} ${readFileSync(`/proc/${entry.pid}/cmdline`, 'utf8').split('\0')[0]}`;
  } catch {
    return String(entry.pid);
  }
}

/** An orphan found by the drill is removed so it cannot disturb what follows. */
function killQuietly(entry: ProcessEntry): void {
  try {
    process.kill(entry.pid, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
}
