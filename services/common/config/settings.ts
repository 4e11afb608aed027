import type { Command } from 'commander';

/*
 * The one way a service reads its settings. Each setting is declared once — flag (listed by
 * --help), environment variable, description, parser and default — and read in one order: a flag
 * wins over its variable, the variable over the default. A wrong value stops the start with a
 * message that names both the flag and the variable, so an operator finds it whichever they used.
 */

/** A setting's value is wrong; the message names the flag and the variable. */
export class SettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingError';
  }
}

/** Turns the given text into a value, or throws SettingError naming `name`. */
export type SettingParser<T> = (text: string, name: string) => T;

export interface Setting<T> {
  /** commander syntax: `--lease-ttl-seconds <seconds>`, or `--flag` for a switch. */
  readonly flag: string;
  readonly variable: string;
  readonly description: string;
  readonly parse: SettingParser<T>;
  /** Used when neither the flag nor the variable is given. */
  readonly fallback: T;
}

/** A setting with a default. */
export function setting<T>(
  flag: string,
  variable: string,
  description: string,
  parse: SettingParser<T>,
  fallback: T,
): Setting<T>;
/** A setting that stays undefined unless given. */
export function setting<T>(
  flag: string,
  variable: string,
  description: string,
  parse: SettingParser<T>,
): Setting<T | undefined>;
export function setting<T>(
  flag: string,
  variable: string,
  description: string,
  parse: SettingParser<T>,
  fallback?: T,
): Setting<T | undefined> {
  return { flag, variable, description, parse, fallback };
}

export type SettingDefinitions = Readonly<Record<string, Setting<unknown>>>;

/** The resolved values of a definitions table, one property per setting. */
export type SettingValues<Definitions extends SettingDefinitions> = {
  -readonly [Name in keyof Definitions]: Definitions[Name] extends Setting<infer T> ? T : never;
};

/** Parsers shared by every service. Each names the setting in its message. */
export const parseAs = {
  wholeNumber:
    (min: number, max: number): SettingParser<number> =>
    (text, name) => {
      const value = Number(text);
      if (!isPlainDecimal(text) || !Number.isSafeInteger(value) || value < min || value > max) {
        throw new SettingError(
          `${name} must be a whole number from ${min} to ${max}, got "${text}"`,
        );
      }
      return value;
    },
  number:
    (min: number, max: number): SettingParser<number> =>
    (text, name) => {
      const value = Number(text);
      if (!isPlainDecimal(text) || !Number.isFinite(value) || value < min || value > max) {
        throw new SettingError(`${name} must be a number from ${min} to ${max}, got "${text}"`);
      }
      return value;
    },
  text: ((text, name) => {
    if (text.trim() === '') throw new SettingError(`${name} must not be empty`);
    return text.trim();
  }) as SettingParser<string>,
  onOff: ((text, name) => {
    if (/^(1|true|on|yes)$/i.test(text)) return true;
    if (/^(0|false|off|no)$/i.test(text)) return false;
    throw new SettingError(`${name} must be on or off, got "${text}"`);
  }) as SettingParser<boolean>,
  commaList: ((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')) as SettingParser<string[]>,
  absoluteUrl: ((text, name) => {
    try {
      return new URL(text.trim()).href.replace(/\/$/, '');
    } catch {
      throw new SettingError(`${name} must be an absolute URL, got "${text}"`);
    }
  }) as SettingParser<string>,
  /** Text matching `pattern` entirely; `what` describes the expected form in the message. */
  matching:
    (pattern: RegExp, what: string): SettingParser<string> =>
    (text, name) => {
      if (!pattern.test(text)) throw new SettingError(`${name} must be ${what}`);
      return text;
    },
};

/** `12`, `-3`, `0.5` — not `1e3`, `0x10`, `Infinity` or an empty string, which Number() accepts. */
function isPlainDecimal(text: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(text.trim());
}

/**
 * Registers every setting as a flag on the service's command, so --help lists them with their
 * variable and default. No commander default is set: a flag must be told apart from the variable.
 */
export function addSettingOptions(command: Command, definitions: SettingDefinitions): void {
  for (const definition of Object.values(definitions)) {
    const shown =
      definition.fallback === undefined ? '' : `; default ${describeDefault(definition.fallback)}`;
    command.option(
      definition.flag,
      `${definition.description} (env ${definition.variable}${shown})`,
    );
  }
}

/** Reads every setting of `definitions`: the parsed flag, else the variable, else the default. */
export function readSettings<Definitions extends SettingDefinitions>(
  definitions: Definitions,
  options: Record<string, unknown>,
  environment: NodeJS.ProcessEnv,
): SettingValues<Definitions> {
  const values: Record<string, unknown> = {};
  for (const [key, definition] of Object.entries(definitions)) {
    const fromFlag = options[optionKey(definition.flag)];
    if (typeof fromFlag === 'boolean') {
      values[key] = fromFlag; // a switch: present means on
      continue;
    }
    const given = fromFlag ?? environment[definition.variable];
    values[key] =
      typeof given === 'string' && given.trim() !== ''
        ? definition.parse(given.trim(), settingLabel(definition))
        : definition.fallback;
  }
  return values as SettingValues<Definitions>;
}

/** `--lease-ttl-seconds / DOWNLOADER_LEASE_TTL_SECONDS`: how messages name a setting. */
export function settingLabel(definition: Pick<Setting<unknown>, 'flag' | 'variable'>): string {
  return `${definition.flag.split(' ')[0]} / ${definition.variable}`;
}

/** The commander key of a flag: `--lease-ttl-seconds <s>` → `leaseTtlSeconds`. */
function optionKey(flag: string): string {
  return flag
    .split(' ')[0]
    .replace(/^--/, '')
    .replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

function describeDefault(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(',');
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value);
}
