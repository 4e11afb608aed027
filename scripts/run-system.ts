import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { SchedulerClient } from '../generated/scheduler';
import type { ServiceName } from '../services/common/storage/service-name';
import {
  startSupervisedProcess,
  stopSupervisedProcesses,
  type SupervisedProcess,
} from '../services/common/process/child-process-supervisor';
import {
  isListeningLine,
  nodeEntryPoint,
  serviceEntryPoint,
} from '../services/common/process/service-entry-point';
import { runM0 } from './m0/m0-steps';
import { crawlProgressLine, fetchStrategyText, parkedCountsOf } from './system/crawl-progress';
import { strategySwitchLineOf } from './system/strategy-switch-lines';
import { followSampler } from './system/follow-sampler';
import { loadOrCreateServiceTokens } from './system/service-tokens';
import {
  demoBaseUrls,
  logDirectory,
  portsFromEnvironment,
  serviceUrl,
  systemEnvironment,
  systemServices,
  allDemoHosts,
  DEMO_LINK_RENDER_INTERVAL_SECONDS,
  type SystemLayout,
} from './system/system-layout';

/**
 * `make run`: starts the bundled demo site and the three services as separate processes on the
 * embedded LMDB default (tokens generated on the first run and kept in the data directory), performs
 * M0 with a step-by-step display, then keeps crawling the demo site and prints where to look until
 * Ctrl-C stops everything. A second run reuses the data and the tokens.
 */
async function main(): Promise<void> {
  const environment = process.env;
  const options = new Command('run-system')
    .option('--data-dir <path>', 'data directory (env DATA_DIR)', environment.DATA_DIR ?? './.data')
    .option(
      '--demo-port <port>',
      'port of the demo site on each of its hosts (env DEMO_PORT)',
      environment.DEMO_PORT ?? '8181',
    )
    .option(
      '--demo-hosts <list>',
      'loopback addresses of the demo site M0 writes rules for by hand (env DEMO_HOSTS)',
      environment.DEMO_HOSTS ?? '127.0.0.2,127.0.0.3,127.0.0.4',
    )
    .option(
      '--sampled-demo-hosts <list>',
      'client-rendered demo hosts without a rule, left to the sampler (env DEMO_SAMPLED_HOSTS)',
      environment.DEMO_SAMPLED_HOSTS ?? '127.0.0.5',
    )
    .parse(process.argv)
    .opts<{ dataDir: string; demoPort: string; demoHosts: string; sampledDemoHosts: string }>();
  const hostList = (text: string) =>
    text
      .split(',')
      .map((host) => host.trim())
      .filter((host) => host !== '');
  const dataDirectory = resolve(options.dataDir);
  const layout: SystemLayout = {
    dataDirectory,
    ports: portsFromEnvironment(environment),
    demoHosts: hostList(options.demoHosts),
    sampledDemoHosts: hostList(options.sampledDemoHosts),
    demoPort: Number(options.demoPort),
    tokens: loadOrCreateServiceTokens(join(dataDirectory, 'service-tokens.json')),
  };
  mkdirSync(logDirectory(layout), { recursive: true });

  const running: SupervisedProcess[] = [];
  const logs: WriteStream[] = [];
  let isStopping = false;
  const stop = async (exitCode: number) => {
    if (isStopping) return;
    isStopping = true;
    console.log('\nstopping the demo site and the services …');
    await stopSupervisedProcesses(running);
    for (const log of logs) log.end();
    console.log('everything stopped');
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  const start = async (
    name: string,
    entry: { command: string; argumentList: string[] },
    isReadyLine: (line: string) => boolean,
  ) => {
    const log = createWriteStream(join(logDirectory(layout), `${name}.log`), { flags: 'a' });
    logs.push(log);
    running.push(
      await startSupervisedProcess({
        name,
        command: entry.command,
        argumentList: entry.argumentList,
        environment: systemEnvironment(layout, environment),
        isReadyLine,
        onLine: (_name, line) => {
          log.write(`${line}\n`);
          const switchLine =
            name === 'scheduler'
              ? strategySwitchLineOf(line, linkRenderIntervalSeconds(environment))
              : undefined;
          if (switchLine !== undefined) console.log(switchLine);
        },
      }),
    );
  };

  const watchExit = (supervised: SupervisedProcess) => {
    void supervised.exited.then((code) => {
      if (!isStopping) {
        console.error(`${supervised.name} exited unexpectedly (code ${code}); stopping the rest`);
        void stop(1);
      }
    });
  };
  const startService = async (service: ServiceName) => {
    process.stdout.write(`starting ${service} on ${serviceUrl(layout, service)} … `);
    const entry = serviceEntryPoint(service);
    await start(
      service,
      {
        command: entry.command,
        argumentList: [...entry.argumentList, '--port', String(layout.ports[service])],
      },
      isListeningLine,
    );
    watchExit(running[running.length - 1]);
    console.log('ready');
  };
  const giveUp = async (error: unknown) => {
    console.error(`\n${error instanceof Error ? error.message : String(error)}`);
    console.error(`(the logs in ${logDirectory(layout)} say more)`);
    await stop(1);
  };

  console.log(`render-crawler — data in ${dataDirectory}, logs in ${logDirectory(layout)}`);
  try {
    process.stdout.write(
      `starting the demo site on ${allDemoHosts(layout)
        .map((host) => `http://${host}:${layout.demoPort}`)
        .join(', ')} … `,
    );
    const demo = nodeEntryPoint(join(__dirname, 'demo-site', 'main'));
    await start(
      'demo-site',
      {
        command: demo.command,
        argumentList: [
          ...demo.argumentList,
          '--hosts',
          allDemoHosts(layout).join(','),
          '--client-rendered-hosts',
          layout.sampledDemoHosts.join(','),
          '--port',
          String(layout.demoPort),
        ],
      },
      (line) => line.startsWith('Demo site running'),
    );
    watchExit(running[running.length - 1]);
    console.log('ready');
    // M0 is the contract's integration anchor without the sampler: it starts after M0.
    for (const service of systemServices.filter((name) => name !== 'sampler')) {
      await startService(service);
    }
  } catch (error) {
    await giveUp(error);
    return;
  }

  console.log('\nM0 — the first integration point (CONTRACT.md §六)');
  const [seedBase, ...otherBases] = demoBaseUrls(layout);
  const outcome = await runM0({
    scheduler: { url: serviceUrl(layout, 'scheduler'), token: layout.tokens.scheduler },
    downloader: { url: serviceUrl(layout, 'downloader'), token: layout.tokens.downloader },
    seedUrl: `${seedBase}/csr`,
    extraRuleDomainList: otherBases.map((base) => new URL(base).hostname),
    minIntervalMs: 1000,
    waitSelector: null,
    renderTimeoutMs: 120_000,
    say: (line) => console.log(line),
  }).catch((error: unknown) => {
    console.log(`M0 FAILED: ${error instanceof Error ? error.message : String(error)}`);
    return { isPassed: false };
  });

  if (outcome.isPassed) {
    console.log(
      `\nThe sampler takes over: ${layout.sampledDemoHosts.join(', ') || 'no host'} has no hand-written ` +
        'rule; the crawl finds it through links, the sampler judges it and sends its rule. While ' +
        'rendering its pages the downloader notices the JSON endpoint behind them and hints it; once ' +
        'the sampler has verified it, the domain switches to api (contract v2) — a line below says so.',
    );
    try {
      await startService('sampler');
    } catch (error) {
      await giveUp(error);
      return;
    }
    followSampler({
      url: serviceUrl(layout, 'sampler'),
      token: layout.tokens.sampler,
      say: (line) => console.log(line),
    });
  }
  printWhereToLook(layout, outcome.isPassed);
  followCrawl(layout);
}

function linkRenderIntervalSeconds(environment: NodeJS.ProcessEnv): number {
  return Number(
    environment.SCHEDULER_API_LINK_RENDER_INTERVAL_SECONDS ?? DEMO_LINK_RENDER_INTERVAL_SECONDS,
  );
}

function printWhereToLook(layout: SystemLayout, isM0Passed: boolean): void {
  const page = (service: ServiceName) =>
    `${serviceUrl(layout, service)}/operator#token=${layout.tokens[service]}`;
  console.log(
    [
      '',
      isM0Passed
        ? 'The lease loop keeps crawling the demo site by its links. Where to look:'
        : 'M0 did not pass; the services keep running for inspection. Where to look:',
      `  scheduler operator page   ${page('scheduler')}`,
      `  downloader operator page  ${page('downloader')}`,
      ...(isM0Passed
        ? [
            `  sampler operator page     ${page('sampler')}`,
            `  consumer tokens           DATA_DIR=${layout.dataDirectory} SAMPLER_URL=${serviceUrl(layout, 'sampler')} npm run sampler:consumer-tokens -- issue my-consumer`,
          ]
        : []),
      ...systemServices.map(
        (service) => `  ${service.padEnd(10)} API reference  ${serviceUrl(layout, service)}/docs`,
      ),
      `  demo site                 ${demoBaseUrls(layout)[0]}/`,
      `  tokens                    ${join(layout.dataDirectory, 'service-tokens.json')}`,
      `  npm run m0 against this   SCHEDULER_TOKEN=… DOWNLOADER_TOKEN=… M0_SEED_URL=${demoBaseUrls(layout)[0]}/csr npm run m0`,
      'Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );
}

/**
 * One line of crawl progress whenever the frontier's counts change (checked every 5 s), failed
 * URLs with why they failed.
 */
function followCrawl(layout: SystemLayout): void {
  const client = new SchedulerClient({
    baseUrl: serviceUrl(layout, 'scheduler'),
    token: layout.tokens.scheduler,
  });
  let previous = '';
  const timer = setInterval(() => {
    Promise.all([
      client.getFrontierSummary({ limit: 1 }),
      fetch(`${serviceUrl(layout, 'scheduler')}/metrics`).then((response) => response.text()),
      fetch(`${serviceUrl(layout, 'downloader')}/metrics`).then((response) => response.text()),
    ])
      .then(([summary, metricsText, downloaderMetricsText]) => {
        const line =
          crawlProgressLine(summary.url_state_list, parkedCountsOf(metricsText)) +
          fetchStrategyText(downloaderMetricsText);
        if (line !== previous) {
          console.log(`crawl: ${line}`);
          previous = line;
        }
      })
      .catch(() => undefined);
  }, 5000);
  timer.unref();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
