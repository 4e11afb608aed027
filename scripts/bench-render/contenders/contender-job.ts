import type { PageRecord } from '../page-record';

/** Contenders that run in a child process of their own (the downloader service is its own process). */
export type ChildContenderKind = 'render-engine' | 'crawlee' | 'bare-loop';

/** Parent → child: what to render. */
export interface ContenderJob {
  readonly kind: ChildContenderKind;
  readonly urls: readonly string[];
  /** The bench site's loopback addresses: the only destinations a contender may reach. */
  readonly hosts: readonly string[];
  /** Pages at once, for contenders run at a fixed concurrency (the bare loop's sweep). */
  readonly concurrency: number;
}

/** Child → parent. */
export type ContenderMessage =
  | { readonly type: 'page'; readonly record: PageRecord }
  | { readonly type: 'done'; readonly notes?: readonly string[] }
  | { readonly type: 'error'; readonly message: string };

/** Runs the job; may answer notes for the report (e.g. the concurrency an autoscaler chose). */
export type RunContender = (
  job: ContenderJob,
  onRecord: (record: PageRecord) => void,
) => Promise<readonly string[] | void>;
