import { Command } from 'commander';
import type { ServiceName } from '../storage/service-name';
import {
  addSettingOptions,
  parseAs,
  readSettings,
  setting,
  type SettingDefinitions,
  type SettingValues,
} from './settings';

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

export const defaultPorts: Readonly<Record<ServiceName, number>> = {
  scheduler: 7101,
  downloader: 7102,
  sampler: 7103,
};

/** `scheduler` → `SCHEDULER` (prefix of its environment variables). */
export function environmentPrefix(serviceName: ServiceName): string {
  return serviceName.toUpperCase();
}

/** The flags every service has; the variables carry the service's prefix. */
function commonSettingsOf(serviceName: ServiceName) {
  const prefix = environmentPrefix(serviceName);
  return {
    host: setting(
      '--host <address>',
      `${prefix}_HOST`,
      'listen address',
      parseAs.text,
      '127.0.0.1',
    ),
    port: setting(
      '--port <number>',
      `${prefix}_PORT`,
      'listen port',
      parseAs.wholeNumber(0, 65535),
      defaultPorts[serviceName],
    ),
    token: setting(
      '--token <token>',
      `${prefix}_TOKEN`,
      "this service's bearer token (at least 16 characters; never logged)",
      parseAs.text,
    ),
    dataDirectory: setting(
      '--data-dir <path>',
      'DATA_DIR',
      'data directory root',
      parseAs.text,
      './.data',
    ),
    shouldValidateResponses: setting(
      '--validate-responses',
      'CONTRACT_VALIDATE_RESPONSES',
      'validate every answer against the contract (on in tests)',
      parseAs.onOff,
      false,
    ),
  };
}

/**
 * Parses the common flags and the service's own `definitions` from one command, so `--help`
 * lists everything in one place. `--help` prints and throws commander's helpDisplayed error
 * (exit code 0); the entry point exits quietly on it.
 */
export function parseServiceConfig<Definitions extends SettingDefinitions>(
  serviceName: ServiceName,
  argv: string[],
  environment: NodeJS.ProcessEnv,
  definitions: Definitions,
): { config: ServiceConfig; settings: SettingValues<Definitions> } {
  const common = commonSettingsOf(serviceName);
  const command = new Command(serviceName)
    .description(`the ${serviceName} service of the render-crawler`)
    .exitOverride();
  addSettingOptions(command, common);
  addSettingOptions(command, definitions);
  command.parse(argv, { from: 'node' });
  const options = command.opts();
  const values = readSettings(common, options, environment);
  if (values.token === undefined || values.token.length < 16) {
    throw new Error(
      `${environmentPrefix(serviceName)}_TOKEN (or --token) must be set to a secret of at least 16 characters`,
    );
  }
  return {
    config: { serviceName, ...values, token: values.token },
    settings: readSettings(definitions, options, environment),
  };
}
