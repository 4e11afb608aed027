import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The downloader's Prometheus metrics, on the registry the service host passes. */
export class DownloaderMetrics {
  readonly fetchCount: Counter<'entry_name' | 'outcome'>;
  readonly fetchDuration: Histogram<'entry_name' | 'is_rendered'>;
  readonly overLimitCount: Counter<'entry_name' | 'hold_reason'>;
  readonly robotsFetchCount: Counter<'robots_policy'>;
  readonly robotsDecisionCount: Counter<'decision'>;
  readonly politenessHoldCount: Counter<'rate_limit_state' | 'fail_reason'>;
  readonly browserLossCount: Counter;
  readonly leasedTaskCount: Counter;
  readonly leaseCallCount: Counter<'result'>;
  readonly reportCount: Counter<'result'>;
  readonly reportRetryCount: Counter;
  readonly outboxDepth: Gauge;

  constructor(
    registry: Registry,
    live: { inFlightCount: () => number; maxConcurrentCount: () => number },
  ) {
    const registers = [registry];
    this.fetchCount = new Counter({
      name: 'downloader_fetch_total',
      help: 'Requests sent to origins, by entry and outcome (page, not_modified, refused, failed:<fail_reason>)',
      labelNames: ['entry_name', 'outcome'],
      registers,
    });
    this.fetchDuration = new Histogram({
      name: 'downloader_fetch_duration_seconds',
      help: 'From dispatch to outcome, per entry, rendered or plain',
      labelNames: ['entry_name', 'is_rendered'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64],
      registers,
    });
    this.overLimitCount = new Counter({
      name: 'downloader_over_limit_total',
      help: 'Requests held back by the rate-limit layer, by entry and reason',
      labelNames: ['entry_name', 'hold_reason'],
      registers,
    });
    this.robotsFetchCount = new Counter({
      name: 'downloader_robots_fetch_total',
      help: 'robots.txt fetched, by the resulting policy (follow_rules, allow_all, disallow_all)',
      labelNames: ['robots_policy'],
      registers,
    });
    this.robotsDecisionCount = new Counter({
      name: 'downloader_robots_decision_total',
      help: 'URLs checked against robots.txt, by decision',
      labelNames: ['decision'],
      registers,
    });
    this.politenessHoldCount = new Counter({
      name: 'downloader_politeness_hold_total',
      help: 'Domains put into politeness backoff or pause, by state and the error behind it',
      labelNames: ['rate_limit_state', 'fail_reason'],
      registers,
    });
    this.browserLossCount = new Counter({
      name: 'downloader_browser_loss_total',
      help: 'Chromium processes lost (crash or kill), each replaced',
      registers,
    });
    this.leasedTaskCount = new Counter({
      name: 'downloader_leased_task_total',
      help: 'Tasks received from the scheduler',
      registers,
    });
    this.leaseCallCount = new Counter({
      name: 'downloader_lease_call_total',
      help: 'GET /v1/lease calls, by result (tasks, empty, failed)',
      labelNames: ['result'],
      registers,
    });
    this.reportCount = new Counter({
      name: 'downloader_report_total',
      help: 'Reports finished, by result (acknowledged, stale_lease, dead_letter)',
      labelNames: ['result'],
      registers,
    });
    this.reportRetryCount = new Counter({
      name: 'downloader_report_retry_total',
      help: 'POST /v1/report tries that failed and were retried',
      registers,
    });
    this.outboxDepth = new Gauge({
      name: 'downloader_report_outbox_depth',
      help: 'Reports written to the outbox and not yet acknowledged',
      registers,
    });
    new Gauge({
      name: 'downloader_in_flight_requests',
      help: 'Requests in flight now, all entries',
      registers,
      collect() {
        this.set(live.inFlightCount());
      },
    });
    new Gauge({
      name: 'downloader_max_concurrent_count',
      help: 'The global brake in force',
      registers,
      collect() {
        this.set(live.maxConcurrentCount());
      },
    });
  }
}
