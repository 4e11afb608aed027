import type { PoolSizeChange } from './pool-sizing/page-pool-sizer';
import type { RenderOutcome } from './render-outcome';
import type { RendererHeapCollection } from './renderer-heap-reclaim';

/** Hooks for metrics and logs; every hook is optional and must not throw. */
export interface RenderEngineObserver {
  renderFinished?(event: RenderFinishedEvent): void;
  browserStarted?(event: { sequenceNumber: number; processId: number | undefined }): void;
  /** The browser died (crash or kill), not a planned recycle. */
  browserLost?(event: { sequenceNumber: number }): void;
  /** The self-sizing pool changed its size. */
  poolResized?(change: PoolSizeChange): void;
  /** A returned page's renderer had its heaps collected (renderer-heap-reclaim.ts). */
  rendererHeapCollected?(collection: RendererHeapCollection): void;
}

export interface RenderFinishedEvent {
  readonly outcome: RenderOutcome;
  readonly isRendered: boolean;
  /** Waiting for a free page. */
  readonly queueWaitMs: number;
  /** From the start of the fetch/render to the outcome (queueing excluded). */
  readonly durationMs: number;
}

/** A point-in-time view for a politeness layer, a dashboard or a benchmark. */
export interface RenderEngineStatistics {
  readonly concurrency: number;
  readonly busyPageCount: number;
  readonly freePageCount: number;
  /** Renders waiting for a page. */
  readonly queuedRenderCount: number;
  readonly browserLaunchCount: number;
  readonly browserLossCount: number;
  /** Finished renders by outcome: `page`, `not_modified`, `refused`, `failed:<fail_reason>`. */
  readonly outcomeCounts: Readonly<Record<string, number>>;
}

export function outcomeCountKey(outcome: RenderOutcome): string {
  return outcome.kind === 'failed' ? `failed:${outcome.failReason}` : outcome.kind;
}
