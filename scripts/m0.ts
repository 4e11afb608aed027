import { Command } from 'commander';
import { runM0 } from './m0/m0-steps';

/**
 * `npm run m0`: performs only the four M0 steps against services already running anywhere — the
 * integration check for real deployments. Exit code 0 when M0 passed, 1 otherwise.
 */
async function main(): Promise<void> {
  const environment = process.env;
  const options = new Command('m0')
    .description('perform M0 (CONTRACT.md §六) against running services')
    .option(
      '--scheduler-url <url>',
      'env SCHEDULER_URL',
      environment.SCHEDULER_URL ?? 'http://127.0.0.1:7101',
    )
    .option('--scheduler-token <token>', 'env SCHEDULER_TOKEN', environment.SCHEDULER_TOKEN)
    .option(
      '--downloader-url <url>',
      'env DOWNLOADER_URL',
      environment.DOWNLOADER_URL ?? 'http://127.0.0.1:7102',
    )
    .option('--downloader-token <token>', 'env DOWNLOADER_TOKEN', environment.DOWNLOADER_TOKEN)
    .option('--seed-url <url>', 'the page M0 crawls (env M0_SEED_URL)', environment.M0_SEED_URL)
    .option(
      '--wait-selector <css>',
      "the hand-written rule's wait_selector",
      environment.M0_WAIT_SELECTOR,
    )
    .option(
      '--min-interval-ms <ms>',
      "the hand-written rule's min_interval_ms",
      (value) => Number(value),
      1000,
    )
    .option('--timeout-seconds <s>', 'how long step 3 may take', (value) => Number(value), 120)
    .parse(process.argv)
    .opts<{
      schedulerUrl: string;
      schedulerToken?: string;
      downloaderUrl: string;
      downloaderToken?: string;
      seedUrl?: string;
      waitSelector?: string;
      minIntervalMs: number;
      timeoutSeconds: number;
    }>();
  const missing = [
    ['--scheduler-token / SCHEDULER_TOKEN', options.schedulerToken],
    ['--downloader-token / DOWNLOADER_TOKEN', options.downloaderToken],
    ['--seed-url / M0_SEED_URL', options.seedUrl],
  ].filter(([, value]) => !value);
  if (missing.length > 0) {
    console.error(`m0: missing ${missing.map(([name]) => name).join(', ')}`);
    process.exit(2);
  }
  const outcome = await runM0({
    scheduler: { url: options.schedulerUrl, token: options.schedulerToken! },
    downloader: { url: options.downloaderUrl, token: options.downloaderToken! },
    seedUrl: options.seedUrl!,
    waitSelector: options.waitSelector ?? null,
    minIntervalMs: options.minIntervalMs,
    renderTimeoutMs: options.timeoutSeconds * 1000,
    say: (line) => console.log(line),
  });
  process.exitCode = outcome.isPassed ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(`m0 failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
