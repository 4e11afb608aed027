import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { defaultPorts, type ServiceName } from '../services/common/config/service-config';
import {
  startSupervisedProcess,
  stopSupervisedProcesses,
  type SupervisedProcess,
} from '../services/common/process/child-process-supervisor';
import { isListeningLine, serviceEntryPoint } from '../services/common/process/service-entry-point';
import { loadOrCreateServiceTokens } from './system/service-tokens';

const services: ServiceName[] = ['scheduler', 'downloader', 'sampler'];

/**
 * `make run`: starts the three services as separate processes on the embedded LMDB default, with
 * tokens generated on the first run and kept in the data directory, prints where to look, and
 * stops everything cleanly on Ctrl-C.
 */
async function main(): Promise<void> {
  const options = new Command('run-system')
    .option('--data-dir <path>', 'data directory (env DATA_DIR)', process.env.DATA_DIR ?? './.data')
    .option('--verbose', 'show every service log line', false)
    .parse(process.argv)
    .opts<{ dataDir: string; verbose: boolean }>();
  const dataDirectory = resolve(options.dataDir);
  const tokens = loadOrCreateServiceTokens(join(dataDirectory, 'service-tokens.json'));
  const ports = Object.fromEntries(
    services.map((service) => [
      service,
      Number(process.env[`${service.toUpperCase()}_PORT`] ?? defaultPorts[service]),
    ]),
  ) as Record<ServiceName, number>;
  const urls = Object.fromEntries(
    services.map((service) => [service, `http://127.0.0.1:${ports[service]}`]),
  ) as Record<ServiceName, string>;

  const running: SupervisedProcess[] = [];
  let isStopping = false;
  const stop = async (exitCode: number) => {
    if (isStopping) return;
    isStopping = true;
    console.log('\nstopping services …');
    await stopSupervisedProcesses(running);
    console.log('all services stopped');
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDirectory,
    SCHEDULER_URL: urls.scheduler,
    DOWNLOADER_URL: urls.downloader,
    SAMPLER_URL: urls.sampler,
    SCHEDULER_TOKEN: tokens.scheduler,
    DOWNLOADER_TOKEN: tokens.downloader,
    SAMPLER_TOKEN: tokens.sampler,
  };
  try {
    for (const service of services) {
      process.stdout.write(`starting ${service} on ${urls[service]} … `);
      const entry = serviceEntryPoint(service);
      running.push(
        await startSupervisedProcess({
          name: service,
          command: entry.command,
          argumentList: [...entry.argumentList, '--port', String(ports[service])],
          environment,
          isReadyLine: isListeningLine,
          onLine: options.verbose ? (name, line) => console.log(`[${name}] ${line}`) : undefined,
        }),
      );
      console.log('ready');
    }
  } catch (error) {
    console.error(`\n${error instanceof Error ? error.message : String(error)}`);
    await stop(1);
    return;
  }

  console.log(
    `\nThe system is running (data in ${dataDirectory}; tokens in service-tokens.json there).`,
  );
  for (const service of services) {
    console.log(`  ${service.padEnd(10)} ${urls[service]}   API reference ${urls[service]}/docs`);
  }
  console.log('Press Ctrl-C to stop.');
  for (const supervised of running) {
    void supervised.exited.then((code) => {
      if (!isStopping) {
        console.error(`${supervised.name} exited unexpectedly (code ${code}); stopping the rest`);
        void stop(1);
      }
    });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
