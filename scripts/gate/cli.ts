import { Command, CommanderError, Option } from 'commander';
import { RULE_IDS, type RuleId } from './finding';
import { formatJson, formatText } from './report';
import { GateInputError } from './repository-files';
import { runGate } from './run-gate';

/** Where the CLI writes; tests pass their own. */
export interface CliOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processOutput: CliOutput = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

interface CliOptions {
  root: string;
  format: 'text' | 'json';
  rule?: RuleId[];
}

/**
 * `check-json-tags [--root <dir>] [--format text|json] [--rule <id...>]`. Returns the exit code:
 * 0 clean, 1 on any finding, 2 on a usage or input error (an unreadable root, an unknown flag).
 */
export function runCli(
  argv: string[],
  defaultRoot: string,
  output: CliOutput = processOutput,
): number {
  const program = new Command()
    .name('check-json-tags')
    .description(
      'The naming-drift gate: CONTRACT.md and CONVENTION.md against openapi/, generated/ and services/.',
    )
    .option('--root <dir>', 'repository root to check', defaultRoot)
    .addOption(
      new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'),
    )
    .addOption(new Option('--rule <ids...>', 'run only these rules').choices(RULE_IDS))
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr });
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT_CLEAN : EXIT_USAGE;
    }
    throw error;
  }
  const options = program.opts<CliOptions>();
  try {
    const result = runGate({ root: options.root, rules: options.rule });
    output.stdout(`${options.format === 'json' ? formatJson(result) : formatText(result)}\n`);
    return result.findings.length === 0 ? EXIT_CLEAN : EXIT_FINDINGS;
  } catch (error) {
    if (error instanceof GateInputError) {
      output.stderr(`check-json-tags: ${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}
