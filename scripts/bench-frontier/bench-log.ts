import { performance } from 'node:perf_hooks';

const startedAt = performance.now();

/** A progress line with the seconds since the bench started. */
export function log(message: string): void {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1).padStart(6);
  process.stdout.write(`[${seconds} s] ${message}\n`);
}

export function elapsedSeconds(): number {
  return (performance.now() - startedAt) / 1000;
}

export function percentile(sorted: readonly number[], fraction: number): number {
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

/** Work the bench must stop before (BENCH_FRONTIER_BUDGET_SECONDS). */
export class Budget {
  readonly deadline: number;

  constructor(readonly seconds: number) {
    this.deadline = startedAt + seconds * 1000;
  }

  get isOver(): boolean {
    return performance.now() > this.deadline;
  }

  assertLeft(): void {
    if (this.isOver) throw new Error(`over the ${this.seconds} s budget; aborted`);
  }
}
