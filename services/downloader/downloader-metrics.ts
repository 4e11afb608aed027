import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { PoolSizingStatus } from './rendering/pool-sizing/page-pool-sizer';
import { POOL_SIZE_REASONS } from './rendering/pool-sizing/pool-size-policy';
import type { RenderEngineStatistics } from './rendering/render-engine-observer';

/** What the metrics read live at scrape time. */
export interface LiveDownloaderState {
  inFlightCount(): number;
  maxConcurrentCount(): number;
  pagePool(): RenderEngineStatistics & { readonly sizing: PoolSizingStatus };
}

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
  readonly pagePoolResizeCount: Counter<'pool_size_reason'>;
  readonly leaseTaskStrategyCount: Counter<'leased_strategy' | 'render_strategy'>;
  readonly apiEndpointHintCount: Counter<'result'>;
  readonly rendererHeapCollectionDuration: Histogram;
  readonly rendererHeapFreedBytes: Counter;

  constructor(registry: Registry, live: LiveDownloaderState) {
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
    this.pagePoolResizeCount = new Counter({
      name: 'downloader_page_pool_resize_total',
      help: 'Changes of the page pool size, by reason',
      labelNames: ['pool_size_reason'],
      registers,
    });
    this.leaseTaskStrategyCount = new Counter({
      name: 'downloader_lease_task_strategy_total',
      help: 'Leased tasks fetched, by the render_strategy leased (absent from a v1 scheduler: render) and the one used (api falls back to render when the mapping or the answer does not fit)',
      labelNames: ['leased_strategy', 'render_strategy'],
      registers,
    });
    this.apiEndpointHintCount = new Counter({
      name: 'downloader_api_endpoint_hint_total',
      help: 'API endpoint hints, by result (found, accepted, duplicate, dropped)',
      labelNames: ['result'],
      registers,
    });
    this.rendererHeapCollectionDuration = new Histogram({
      name: 'downloader_renderer_heap_collection_duration_seconds',
      help: "Full collections of a renderer's heaps when a page came back with them grown (its _count: how many)",
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.rendererHeapFreedBytes = new Counter({
      name: 'downloader_renderer_heap_freed_bytes_total',
      help: 'V8 + DOM heap bytes those collections freed in the renderers',
      registers,
    });
    this.addPagePoolGauges(registers, live);
  }

  private addPagePoolGauges(registers: Registry[], live: LiveDownloaderState): void {
    const gauge = (name: string, help: string, read: () => number | undefined) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const value = read();
          if (value !== undefined) this.set(value);
        },
      });
    gauge(
      'downloader_page_pool_size',
      'Pages that may render at once now',
      () => live.pagePool().concurrency,
    );
    gauge(
      'downloader_page_pool_min_size',
      'Fewest pages the pool keeps',
      () => live.pagePool().sizing.minSize,
    );
    gauge(
      'downloader_page_pool_max_size',
      'Most pages the pool may grow to (max_concurrent_count, at most 64)',
      () => live.pagePool().sizing.maxSize,
    );
    gauge(
      'downloader_page_pool_busy_pages',
      'Pages rendering now',
      () => live.pagePool().busyPageCount,
    );
    gauge(
      'downloader_page_pool_waiting_renders',
      'Renders waiting for a page now',
      () => live.pagePool().queuedRenderCount,
    );
    const window = () => live.pagePool().sizing.lastWindow;
    gauge(
      'downloader_machine_cpu_busy_ratio',
      "The machine's CPU use (all cores, all processes) over the sizer's last window",
      () => window()?.machineCpuBusyRatio,
    );
    gauge(
      'downloader_process_tree_cpu_ratio',
      "CPU use of this process and its Chromium processes, as a share of all cores, over the sizer's last window",
      () => window()?.treeCpuRatio,
    );
    gauge(
      'downloader_process_tree_pss_bytes',
      'Proportional set size of this process and its Chromium processes',
      () => window()?.treePssBytes,
    );
    gauge(
      'downloader_event_loop_lag_seconds',
      "90th percentile of the event loop's delay over the sizer's last window",
      () => {
        const lagMs = window()?.eventLoopLagMs;
        return lagMs === undefined ? undefined : lagMs / 1000;
      },
    );
    new Gauge({
      name: 'downloader_page_pool_last_change_reason',
      help: 'Why the pool last changed its size: 1 for that reason, 0 for the others',
      labelNames: ['pool_size_reason'],
      registers,
      collect() {
        const reason = live.pagePool().sizing.lastChange.reason;
        for (const candidate of POOL_SIZE_REASONS) {
          this.set({ pool_size_reason: candidate }, candidate === reason ? 1 : 0);
        }
      },
    });
  }
}
