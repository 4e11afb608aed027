/**
 * `npm run sampler:calibrate` — runs the sampling procedure over the labelled corpus (and, apart,
 * over real framework output it was never tuned on) through a real downloader process with real
 * Chromium, all on loopback, and prints the confusion matrix, the csr miss rate, ssr judged csr,
 * renders per decided domain, plain fetches per domain, the time, the margins behind the verdicts,
 * and PASS/FAIL per target. Exits 1 on a FAIL.
 *
 *   npm run sampler:calibrate -- [--concurrency 4] [--interval-ms 150] [--names a,b] [--no-unseen]
 */
import { Command, InvalidArgumentError } from 'commander';
import { DownloaderClient } from '../generated/downloader';
import {
  startDownloaderProcess,
  type DownloaderProcess,
} from '../services/downloader/testing/downloader-process-harness';
import { TEST_DOWNLOADER_TOKEN } from '../services/downloader/testing/downloader-test-harness';
import { DownloaderPageFetcher } from '../services/sampler/downloader-edge/downloader-page-fetcher';
import { SamplingProcedure } from '../services/sampler/sampling/sampling-procedure';
import {
  samplingPolicyWith,
  withUniformIntervalMs,
  type SamplingPolicy,
} from '../services/sampler/sampling/sampling-policy';
import {
  startSamplingCorpus,
  type SamplingCorpus,
} from './demo-site/sampling-corpus/sampling-corpus';
import { startUnseenSites, type UnseenSites } from './demo-site/unseen-sites/unseen-sites';
import {
  computeFigures,
  formatConfusionMatrix,
  formatMargins,
  formatResultLine,
  judgeTargets,
} from './sampler-calibration/calibration-report';
import {
  outcomeKey,
  runCalibration,
  type CalibrationCase,
  type CalibrationResult,
} from './sampler-calibration/calibration-run';

/** The whole run normally takes one to two minutes on two cores; past this it stops. */
const RUN_BUDGET_MS = 10 * 60_000;
const DOMAIN_BUDGET_MS = 120_000;

interface CalibrateOptions {
  concurrency: number;
  intervalMs: number;
  names?: string[];
  unseen: boolean;
}

function parseOptions(): CalibrateOptions {
  const wholeNumber = (minimum: number, maximum: number) => (value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < minimum || parsed > maximum) {
      throw new InvalidArgumentError(`expected a whole number from ${minimum} to ${maximum}`);
    }
    return parsed;
  };
  return new Command()
    .description('Calibrate the sampler on the labelled corpus (and report the unseen set)')
    .option('--concurrency <count>', 'domains sampled at once', wholeNumber(1, 16), 4)
    .option(
      '--interval-ms <ms>',
      'language default interval for the run (robots Crawl-delay still wins)',
      wholeNumber(0, 5000),
      150,
    )
    .option('--names <list>', 'only these corpus rows (comma separated)', (value: string) =>
      value.split(',').map((name) => name.trim()),
    )
    .option('--no-unseen', 'skip the unseen framework sites')
    .parse()
    .opts<CalibrateOptions>();
}

/** The policy the calibration runs with: the defaults, small intervals and timeouts. */
function calibrationPolicy(intervalMs: number): SamplingPolicy {
  return withUniformIntervalMs(
    samplingPolicyWith({
      plainTimeoutMs: 5000,
      renderTimeoutMs: 15_000,
      delayedContentWaitMs: 4000,
      maxRateLimitWaitMs: 30_000,
    }),
    intervalMs,
  );
}

function log(line = ''): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<number> {
  const options = parseOptions();
  const startedAt = Date.now();
  const budget = new AbortController();
  const budgetTimer = setTimeout(
    () => budget.abort(new Error('calibration budget exceeded')),
    RUN_BUDGET_MS,
  );
  const stopOnSignal = () => budget.abort(new Error('interrupted'));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);

  let corpus: SamplingCorpus | undefined;
  let unseen: UnseenSites | undefined;
  let downloader: DownloaderProcess | undefined;
  try {
    corpus = await startSamplingCorpus({ names: options.names });
    unseen = options.unseen ? await startUnseenSites() : undefined;
    const hosts = [
      ...corpus.domains.map((domain) => domain.host),
      ...(unseen?.sites.map((site) => site.host) ?? []),
    ];
    log(
      `corpus: ${corpus.domains.length} labelled domains on 127.0.1.x:${corpus.port}${unseen ? `, ${unseen.sites.length} unseen sites on 127.0.2.x` : ''}`,
    );
    downloader = await startDownloaderProcess({
      allowDestinations: hosts,
      extraArguments: [
        '--default-min-interval-ms',
        String(options.intervalMs),
        '--page-pool-size',
        String(Math.min(4, options.concurrency)),
      ],
    });
    log(
      `downloader: ${downloader.url} (real Chromium), allow-destinations = the ${hosts.length} hosts above`,
    );
    const client = new DownloaderClient({
      baseUrl: downloader.url,
      token: TEST_DOWNLOADER_TOKEN,
      maximumAttemptCount: 2,
    });
    const policy = calibrationPolicy(options.intervalMs);
    const sampler = new SamplingProcedure({
      downloader: new DownloaderPageFetcher(client),
      policy,
    });
    log(
      `policy: interval ${options.intervalMs} ms for every language, thresholds ${JSON.stringify(policy.thresholds)}`,
    );
    log('');

    const labelledCases: CalibrationCase[] = corpus.domains.map((domain) => ({
      name: domain.entry.name,
      domain: domain.host,
      seenUrlList: domain.seenUrlList,
      expected: outcomeKey(domain.entry.label),
    }));
    log(`sampling ${labelledCases.length} labelled domains, ${options.concurrency} at once:`);
    const labelledStartedAt = Date.now();
    const labelled = await runCalibration({
      sampler,
      cases: labelledCases,
      concurrency: options.concurrency,
      domainTimeoutMs: DOMAIN_BUDGET_MS,
      signal: budget.signal,
      onResult: (result, doneCount) =>
        log(
          `[${String(doneCount).padStart(2)}/${labelledCases.length}] ${formatResultLine(result)}`,
        ),
    });
    const labelledMs = Date.now() - labelledStartedAt;

    let unseenResults: CalibrationResult[] = [];
    if (unseen !== undefined) {
      log('');
      log(`sampling ${unseen.sites.length} unseen sites (real framework output; never tuned on):`);
      const unseenCases: CalibrationCase[] = unseen.sites.map((site) => ({
        name: site.name,
        domain: site.host,
        seenUrlList: site.seenUrlList,
        expected: null,
      }));
      unseenResults = await runCalibration({
        sampler,
        cases: unseenCases,
        concurrency: options.concurrency,
        domainTimeoutMs: DOMAIN_BUDGET_MS,
        signal: budget.signal,
        onResult: (result, doneCount) => {
          const site = unseen?.sites.find((candidate) => candidate.name === result.testCase.name);
          log(
            `[${doneCount}/${unseenCases.length}] ${formatResultLine(result)} (a human says: ${site?.expectedByHand ?? '?'})`,
          );
        },
      });
    }

    const figures = computeFigures(labelled);
    log('');
    log(
      'confusion matrix (rows: label, columns: verdict; u: = unknown with that undetermined_reason):',
    );
    log(formatConfusionMatrix(labelled));
    log('');
    log(`correct: ${figures.correctCount} of ${figures.domainCount} labelled domains`);
    log(
      `csr miss rate: ${(figures.csrMissRate * 100).toFixed(1)} % (${figures.csrMissCount} of ${figures.csrCount} csr domains judged otherwise)`,
    );
    log(`ssr judged csr: ${figures.ssrJudgedCsrCount} of ${figures.ssrCount}`);
    log(
      `renders per decided domain: ${figures.rendersPerDecidedDomain.toFixed(2)} (${figures.decidedCount} decided); per domain overall: ${figures.rendersPerDomain.toFixed(2)}`,
    );
    log(`plain fetches per domain: ${figures.plainFetchesPerDomain.toFixed(2)}`);
    log(
      `time: labelled set ${(labelledMs / 1000).toFixed(1)} s, whole run ${((Date.now() - startedAt) / 1000).toFixed(1)} s (2-core machine; other work on it adds noise)`,
    );
    if (figures.errorCount > 0)
      log(`errors: ${figures.errorCount} domain(s) could not be sampled (see above)`);
    log('');
    log(
      'margins (page measures per labelled class; thresholds: ssr ≤ ' +
        `${policy.thresholds.ssrMaxRenderOnlyShare} < partial < ${policy.thresholds.csrMinRenderOnlyShare} ≤ csr; ` +
        `partial also when server share ≥ ${policy.thresholds.partialMinServerShare}):`,
    );
    log(formatMargins(labelled));

    if (unseenResults.length > 0) {
      log('');
      log('unseen set (not part of the targets; real framework output):');
      for (const result of unseenResults) {
        const site = unseen?.sites.find((candidate) => candidate.name === result.testCase.name);
        const judged = result.outcome === null ? 'error' : outcomeKey(result.outcome);
        log(
          `  ${result.testCase.name.padEnd(24)} judged ${judged.padEnd(28)} a human says ${site?.expectedByHand ?? '?'}  ${judged === site?.expectedByHand ? 'agree' : 'DISAGREE'}`,
        );
      }
    }

    log('');
    const verdicts = judgeTargets(figures);
    for (const verdict of verdicts)
      log(`${verdict.isPassed ? 'PASS' : 'FAIL'} ${verdict.name}: ${verdict.detail}`);
    const isComplete = figures.errorCount === 0 && !budget.signal.aborted;
    if (!isComplete) log('FAIL every labelled domain sampled without error within the budget');
    return verdicts.every((verdict) => verdict.isPassed) && isComplete ? 0 : 1;
  } finally {
    clearTimeout(budgetTimer);
    await downloader?.process.stop().catch(() => undefined);
    await unseen?.stop().catch(() => undefined);
    await corpus?.stop().catch(() => undefined);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
