import { SchedulerClient } from '../../../generated/scheduler';
import {
  startServiceProcess,
  type StartedServiceProcess,
} from '../../common/testing/service-process';
import type { ReportRequest } from '../frontier/wire-types';

export const PROCESS_SCHEDULER_TOKEN = 'scheduler-process-token-0123456789';

export interface SchedulerProcess {
  running: StartedServiceProcess;
  client: SchedulerClient;
}

/**
 * The scheduler as its own process (services/scheduler/main.ts) on `dataDirectory`, with upkeep
 * every 100 ms, response validation on, and a client that tries each call once.
 */
export async function startSchedulerProcess(
  dataDirectory: string,
  options: { domainInFlightCap: number },
): Promise<SchedulerProcess> {
  const running = await startServiceProcess(
    'scheduler',
    [
      ...['--data-dir', dataDirectory, '--maintenance-interval-ms', '100'],
      ...['--domain-in-flight-cap', String(options.domainInFlightCap)],
    ],
    {
      SCHEDULER_TOKEN: PROCESS_SCHEDULER_TOKEN,
      CONTRACT_VALIDATE_RESPONSES: '1',
      LOG_LEVEL: 'info',
    },
  );
  return {
    running,
    client: new SchedulerClient({
      baseUrl: running.url,
      token: PROCESS_SCHEDULER_TOKEN,
      maximumAttemptCount: 1,
    }),
  };
}

/**
 * One POST /v1/report, answered or not: the generated client retries a report until it succeeds
 * (as the contract asks of a downloader), which a test of a dying scheduler cannot wait for.
 * Resolves to the HTTP status.
 */
export async function reportOnce(
  baseUrl: string,
  token: string,
  request: ReportRequest,
): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/report`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  await response.arrayBuffer();
  return response.status;
}
