import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { SamplerClient } from '../generated/sampler';
import type { ServiceName } from '../services/common/storage/service-name';
import type { StartedServiceProcess } from '../services/common/testing/service-process';
import { writeDemoSchemaVariant } from './reliability/demo-schema-variant';
import { emptyFindings, readFindings, type FuzzFindings } from './reliability/fuzz-findings';
import { printFuzzSummary, type HealthAtEnd } from './reliability/fuzz-summary';
import { runCommandInLoopbackNamespace } from './reliability/loopback-namespace';
import {
  runSchemathesisPass,
  SCHEMATHESIS_PATH,
  type SchemathesisPass,
} from './reliability/schemathesis-pass';
import {
  newServiceTokens,
  startDemoSite,
  startService,
  type ServiceStart,
  writeServiceLog,
} from './reliability/system-under-test';

/*
 * `npm run fuzz`: schemathesis against the three services' /openapi.json — with and without
 * tokens, stateful through the documents' links, bounded in time — plus a pass whose render URLs
 * are the demo site's, so renders really happen. Everything (services, fuzzer, demo origin) runs
 * in a private network namespace with only loopback. Prints a table and PASS/FAIL per target;
 * exits 1 when a target fails.
 */

const SERVICES: ServiceName[] = ['scheduler', 'downloader', 'sampler'];
const PHASES_ALL = ['examples', 'coverage', 'fuzzing', 'stateful'];

interface FuzzOptions {
  seconds: string;
  quick: boolean;
  seed: string;
  workers: string;
  keep: boolean;
}

async function main(): Promise<number> {
  const options = new Command('fuzz')
    .description('fuzz the three services with schemathesis inside a loopback-only namespace')
    .option('--seconds <n>', 'time budget of each pass with a token', '60')
    .option('--quick', 'the short form make test runs (one to two minutes in all)', false)
    .option('--seed <n>', 'schemathesis seed (a failure replays with the same seed)', '20261130')
    .option('--workers <n>', 'concurrent schemathesis workers per pass', '2')
    .option('--keep', 'keep the work directory (logs, NDJSON reports) afterwards', false)
    .parse(process.argv)
    .opts<FuzzOptions>();
  if (!existsSync(SCHEMATHESIS_PATH)) {
    console.error(
      'schemathesis is missing: run `make setup` (scripts/setup/ensure-schemathesis.sh)',
    );
    return 2;
  }
  // The short form's passes with a token get 12 s: with 7, a clean-clone CI run (2026-12-02) saw
  // the scheduler's first pass spend all of it generating the examples of POST /v1/rules and
  // POST /v1/report (a cold schemathesis, two workers on two cores) and send no request at all.
  const budgetSeconds = options.quick ? 12 : Number(options.seconds);
  const anonymousSeconds = options.quick ? 2 : Math.max(3, Math.round(budgetSeconds / 4));
  // The coverage phase builds boundary values for every constraint; for the downloader's URL
  // pattern with its 8,192-character bound that alone takes ~12 s, so the short form leaves it out.
  const phasesOf = (service: ServiceName) =>
    options.quick && service === 'downloader'
      ? PHASES_ALL.filter((phase) => phase !== 'coverage')
      : PHASES_ALL;
  const workDirectory = mkdtempSync(join(tmpdir(), 'fuzz-'));
  const reportDirectory = join(workDirectory, 'reports');
  mkdirSync(reportDirectory);
  const demo = await startDemoSite({ crawlDelaySeconds: 0 });
  const tokens = newServiceTokens();
  const started: StartedServiceProcess[] = [];
  const stopAll = async () => {
    await Promise.all(started.map((service) => service.stop()));
    await demo.stop();
  };
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  let shouldKeep = options.keep;
  try {
    console.log(`fuzz: starting the demo site and the three services (work in ${workDirectory})`);
    const base: ServiceStart = { workDirectory, tokens, demo };
    const scheduler = await startService('scheduler', base);
    started.push(scheduler);
    const downloader = await startService(
      'downloader',
      { ...base, schedulerUrl: scheduler.url },
      // Fuzzed requests must not wait on politeness meant for real origins.
      { argumentList: ['--lease-loop', 'off', '--page-pool-size', '2'] },
    );
    started.push(downloader);
    const sampler = await startService('sampler', {
      ...base,
      schedulerUrl: scheduler.url,
      downloaderUrl: downloader.url,
    });
    started.push(sampler);
    const urls: Record<ServiceName, string> = {
      scheduler: scheduler.url,
      downloader: downloader.url,
      sampler: sampler.url,
    };

    const passes: Array<{ pass: SchemathesisPass; isAnonymous: boolean }> = [];
    for (const service of SERVICES) {
      passes.push({
        pass: {
          name: `${service} with token`,
          location: `${urls[service]}/openapi.json`,
          token: tokens[service],
          maxTimeSeconds: budgetSeconds,
          mode: 'all',
          phases: phasesOf(service),
        },
        isAnonymous: false,
      });
      passes.push({
        pass: {
          name: `${service} without token`,
          location: `${urls[service]}/openapi.json`,
          maxTimeSeconds: anonymousSeconds,
          mode: 'all',
          phases: phasesOf(service).filter((phase) => phase !== 'stateful'),
        },
        isAnonymous: true,
      });
    }
    const consumerToken = await issueConsumerToken(urls.sampler, tokens.sampler);
    if (consumerToken !== undefined) {
      passes.push({
        pass: {
          name: 'sampler with a consumer token',
          location: `${urls.sampler}/openapi.json`,
          token: consumerToken,
          maxTimeSeconds: budgetSeconds,
          mode: 'all',
          phases: PHASES_ALL,
          includeOperationIds: ['listExportedDomains', 'claimDomains', 'submitVerdictHints'],
        },
        isAnonymous: false,
      });
    }
    const variantPath = join(workDirectory, 'downloader-demo-variant.json');
    const downloaderDocument = await (await fetch(`${urls.downloader}/openapi.json`)).json();
    writeDemoSchemaVariant(downloaderDocument, demo.baseUrls, variantPath);
    passes.push({
      pass: {
        name: 'downloader rendering the demo site',
        location: variantPath,
        baseUrl: urls.downloader,
        token: tokens.downloader,
        maxTimeSeconds: budgetSeconds,
        // The variant narrows the URLs to the demo site: a URL outside it is still valid for the
        // service, so only schema-valid requests are generated here.
        mode: 'positive',
        phases: ['examples', 'fuzzing', 'stateful'],
        includeOperationIds: ['renderPage', 'probeUrl', 'getWebPageObject'],
      },
      isAnonymous: false,
    });

    const findingsByPass = new Map<string, FuzzFindings>();
    for (const [index, { pass, isAnonymous }] of passes.entries()) {
      const startedAt = Date.now();
      process.stdout.write(
        `fuzz: pass ${index + 1}/${passes.length} — ${pass.name} (requests for up to ${pass.maxTimeSeconds} s) … `,
      );
      const run = await runSchemathesisPass(pass, {
        outputDirectory: reportDirectory,
        seed: Number(options.seed),
        workers: Number(options.workers),
      });
      const findings = emptyFindings();
      if (existsSync(run.ndjsonPath)) readFindings(run.ndjsonPath, findings, { isAnonymous });
      findingsByPass.set(pass.name, findings);
      console.log(
        // The whole pass: schemathesis's own start and its schema load come before the budget.
        `${findings.requestCount} requests; the pass took ${((Date.now() - startedAt) / 1000).toFixed(0)} s` +
          (findings.requestCount === 0
            ? ` (schemathesis exit ${run.exitCode}; see ${run.logPath})`
            : ''),
      );
    }
    const health = await healthAtEnd(urls, started);
    const isPassed = printFuzzSummary({
      findingsByPass,
      health,
      demoRenderPass: 'downloader rendering the demo site',
      demoOriginRequestCount: demo.accessLog.list().length,
    });
    shouldKeep ||= !isPassed;
    return isPassed ? 0 : 1;
  } catch (error) {
    shouldKeep = true;
    throw error;
  } finally {
    await stopAll();
    if (shouldKeep) {
      started.forEach((service, index) =>
        writeServiceLog(service, join(reportDirectory, `${SERVICES[index]}-service.log`)),
      );
      console.log(`fuzz: reports and service logs kept in ${reportDirectory}`);
    } else {
      rmSync(workDirectory, { recursive: true, force: true });
    }
  }
}

/** A consumer token for the sampler's export endpoints, when the sampler can issue one. */
async function issueConsumerToken(samplerUrl: string, samplerToken: string) {
  const client = new SamplerClient({ baseUrl: samplerUrl, token: samplerToken });
  try {
    const issued = await client.issueConsumerToken({ consumer_id: 'fuzz-consumer' });
    return issued.consumer_token;
  } catch {
    return undefined; // not built yet (501): the export endpoints are fuzzed with the service token
  }
}

async function healthAtEnd(
  urls: Record<ServiceName, string>,
  started: readonly StartedServiceProcess[],
): Promise<HealthAtEnd[]> {
  return Promise.all(
    SERVICES.map(async (service, index) => {
      const isRunning = started[index]?.child.exitCode === null;
      try {
        const response = await fetch(`${urls[service]}/healthz`);
        const body = (await response.json()) as { is_ready?: boolean };
        return { service, isRunning, isReady: response.status === 200 && body.is_ready === true };
      } catch {
        return { service, isRunning, isReady: false };
      }
    }),
  );
}

runCommandInLoopbackNamespace('fuzz', __filename, main);
