import type { PageRecord } from './page-record';
import type { TreeUsage } from './process-tree';

/** One contender's run as the report sees it. */
export interface ContenderRun {
  readonly label: string;
  /** Every page, warm-up included, in completion order. */
  readonly records: readonly PageRecord[];
  /** Memory and CPU of its process tree; undefined when it could not be watched (external). */
  readonly usage?: TreeUsage;
  /** Why the run ended early or could not start; its row is then incomplete or empty. */
  readonly error?: string;
  /** Why it did not run at all (e.g. POST /v1/render answers 501). */
  readonly skippedBecause?: string;
  /** Shown under the table (configuration facts worth knowing). */
  readonly notes?: readonly string[];
}
