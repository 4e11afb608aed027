import { Command, InvalidArgumentError } from 'commander';

/** What every service process needs, from flags first, then environment, then defaults. */
export interface ServiceConfig {
  serviceName: ServiceName;
  host: string;
  port: number;
  /** This service's fixed bearer token (CONTRACT.md §五). */
  token: string;
  /** Root of the data directory; the service keeps its keyspace under `<dataDirectory>/<service>`. */
  dataDirectory: string;
  /** Validate every answer against the contract (on in tests). */
  shouldValidateResponses: boolean;
}

export type ServiceName = 'scheduler' | 'downloader' | 'sampler';

export const defaultPorts: Readonly<Record<ServiceName, number>> = {
  scheduler: 7101,
  downloader: 7102,
  sampler: 7103,
};

/** `scheduler` → `SCHEDULER` (prefix of its environment variables). */
export function environmentPrefix(serviceName: ServiceName): string {
  return serviceName.toUpperCase();
}

/**
 * Parses the common flags. `extend` lets a service add its own options to the same command so
 * `--help` lists everything in one place.
 */
export function parseServiceConfig(
  serviceName: ServiceName,
  argv: string[],
  environment: NodeJS.ProcessEnv,
  extend?: (command: Command) => void,
): { config: ServiceConfig; options: Record<string, unknown> } {
  const prefix = environmentPrefix(serviceName);
  const command = new Command(serviceName)
    .description(`the ${serviceName} service of the render-crawler`)
    .option(
      '--host <address>',
      `listen address (env ${prefix}_HOST)`,
      environment[`${prefix}_HOST`] ?? '127.0.0.1',
    )
    .option(
      '--port <number>',
      `listen port (env ${prefix}_PORT)`,
      parsePort,
      parsePort(environment[`${prefix}_PORT`] ?? String(defaultPorts[serviceName])),
    )
    .option(
      '--token <token>',
      `this service's bearer token (env ${prefix}_TOKEN)`,
      environment[`${prefix}_TOKEN`],
    )
    .option(
      '--data-dir <path>',
      'data directory root (env DATA_DIR)',
      environment.DATA_DIR ?? './.data',
    )
    .option(
      '--validate-responses',
      'validate every answer against the contract (env CONTRACT_VALIDATE_RESPONSES=1)',
      environment.CONTRACT_VALIDATE_RESPONSES === '1',
    )
    .exitOverride();
  extend?.(command);
  command.parse(argv, { from: 'node' });
  const options = command.opts();
  const token = options.token as string | undefined;
  if (!token || token.length < 16) {
    throw new Error(
      `${prefix}_TOKEN (or --token) must be set to a secret of at least 16 characters`,
    );
  }
  return {
    config: {
      serviceName,
      host: options.host as string,
      port: options.port as number,
      token,
      dataDirectory: options.dataDir as string,
      shouldValidateResponses: options.validateResponses as boolean,
    },
    options,
  };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError(`not a port number: ${value}`);
  }
  return port;
}
