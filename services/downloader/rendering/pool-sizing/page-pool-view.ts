import type { components } from '../../../../generated/downloader';
import { formatContractTime } from '../contract-time';
import type { RenderEngineStatistics } from '../render-engine-observer';
import type { PoolSizingStatus } from './page-pool-sizer';

export type PagePoolView = components['schemas']['PagePoolView'];

/** GET /v1/operator/page-pool: the pool now, its last change and the sizer's last window. */
export function buildPagePoolView(
  statistics: RenderEngineStatistics,
  sizing: PoolSizingStatus,
  now: Date = new Date(),
): PagePoolView {
  const window = sizing.lastWindow;
  return {
    page_count: statistics.concurrency,
    min_page_count: sizing.minSize,
    max_page_count: sizing.maxSize,
    busy_page_count: statistics.busyPageCount,
    waiting_render_count: statistics.queuedRenderCount,
    is_self_sizing: sizing.isSelfSizing,
    pool_size_reason: sizing.lastChange.reason,
    previous_page_count: sizing.lastChange.fromSize,
    last_changed_at: sizing.isSelfSizing
      ? formatContractTime(new Date(sizing.lastChange.atMs))
      : null,
    machine_busy_ratio: window?.machineCpuBusyRatio ?? null,
    downloader_busy_ratio: window?.treeCpuRatio ?? null,
    processor_wait_ratio: window?.cpuStallRatio ?? null,
    memory_available_byte_count: window?.memoryAvailableBytes ?? null,
    downloader_memory_byte_count: window?.treePssBytes ?? null,
    event_loop_delay_ms: window === undefined ? null : Math.round(window.eventLoopLagMs * 10) / 10,
    demand_ratio: window === undefined ? null : Math.round(window.demandRatio * 100) / 100,
    generated_at: formatContractTime(now),
  };
}
