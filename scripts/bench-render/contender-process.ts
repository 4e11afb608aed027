/**
 * Entry point of a contender's own process (forked by contender-runner.ts). Each contender runs
 * alone in a fresh Node process so its memory (Node + its Chromium tree) is measured on its own
 * and nothing — module state, JIT, Crawlee's globals — leaks from one contender to the next.
 */
import type { ContenderJob, ContenderMessage, RunContender } from './contenders/contender-job';
import { runBarePuppeteerLoop } from './contenders/bare-puppeteer-loop';
import { runCrawleePuppeteer } from './contenders/crawlee-puppeteer';
import { runRenderEngineDirect } from './contenders/render-engine-direct';

const CONTENDERS: Record<ContenderJob['kind'], RunContender> = {
  'render-engine': runRenderEngineDirect,
  crawlee: runCrawleePuppeteer,
  'bare-loop': runBarePuppeteerLoop,
};

function send(message: ContenderMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) throw new Error('contender-process must be started with an IPC channel');
    process.send(message, undefined, {}, () => resolve());
  });
}

// The bench died without stopping us (SIGKILL, crash): exit, and puppeteer's exit hook takes the
// browser down with this process.
process.once('disconnect', () => process.exit(1));

process.once('message', (job: ContenderJob) => {
  void (async () => {
    let exitCode = 0;
    try {
      const notes = await CONTENDERS[job.kind](
        job,
        (record) => void send({ type: 'page', record }),
      );
      await send({ type: 'done', notes: notes ?? [] });
    } catch (error) {
      exitCode = 1;
      await send({
        type: 'error',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
    // Browsers are closed by now; don't wait for stray timers of a library to run out.
    process.exit(exitCode);
  })();
});
