import type { Logger } from 'pino';

/**
 * Runs `work` every `intervalMs` (measured from the end of the previous run, so runs never overlap)
 * until stopped; `stop` waits for a run in progress. A failing run is logged and the loop goes on:
 * background upkeep must outlive a transient storage error.
 */
export class MaintenanceLoop {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #isStopped = true;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly work: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.#isStopped = false;
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#isStopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(): void {
    if (this.#isStopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.work()
        .then(
          () => undefined,
          (error: unknown) =>
            this.logger.error({ err: error, loop: this.name }, 'background run failed'),
        )
        .finally(() => {
          this.#running = undefined;
          this.#schedule();
        });
    }, this.intervalMs);
  }
}
