import type { ProbeSchedule } from '../health/domain-health-monitor';
import type { HealthThresholds } from '../health/health-window';
import type { RecrawlPolicy } from './url-task-transitions';

/** Everything an operator can tune in the frontier (flags and variables: scheduler-settings.ts). */
export interface FrontierSettings {
  /** Leased URLs per domain at once (the scheduler's side of per-domain concurrency). */
  domainInFlightCap: number;
  /** `timeout_ms` of every lease task. */
  taskTimeoutMs: number;
  /**
   * How old an api domain URL's last render may get before it is leased as render again, to keep
   * its links fresh (CONTRACT.md §七); 0 renders every time.
   */
  apiLinkRenderIntervalSeconds: number;
  recrawl: RecrawlPolicy;
  /** How long a report's answer is kept for repeats; a repeat after that gets 404. */
  leaseResultTtlSeconds: number;
  /** How long report and lease-expiry audit records are kept. */
  activityRecordTtlSeconds: number;
  /** Links kept per domain without a rule (seeds are always kept). */
  maxWaitingUrlCountPerDomain: number;
  /** The user-agent token matched against robots.txt groups. */
  robotsUserAgent: string;
  health: HealthThresholds;
  probeSchedule: ProbeSchedule;
  probeTimeoutMs: number;
  probeConcurrency: number;
  /** How often changed domain_runtime rows are written behind memory. */
  runtimeWriteIntervalMs: number;
  /** Tick of the background upkeep (reclaim, re-visits, rule application, write-behind, probes). */
  maintenanceIntervalMs: number;
  /** Threads that normalize and hash reported links (0: the main thread does). */
  linkPreparationThreadCount: number;
}
