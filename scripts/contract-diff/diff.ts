import { join } from 'node:path';
import { Command, Option } from 'commander';
import { formatChange } from './breaking-change';
import { diffContract } from './contract-diff';
import { FrozenContractError } from './frozen-contracts';
import { OasdiffError } from './oasdiff-runner';

/**
 * `npm run contract:diff [-- --against v1] [--verbose] [--format json]`: exit 0 when the current
 * contract only adds to (or deprecates in) the frozen one, 1 on a breaking change, 2 when it cannot
 * compare (no frozen contract, oasdiff missing or failing).
 */
function main(): number {
  const options = new Command('contract:diff')
    .description('The add-only gate: CONTRACT.md and openapi/ against the frozen contract.')
    .option('--root <dir>', 'repository root', join(__dirname, '..', '..'))
    .option('--against <version>', 'frozen version to compare with (default: the newest)')
    .option('--verbose', 'also list the changes that pass (additions, deprecations)')
    .addOption(
      new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'),
    )
    .parse(process.argv)
    .opts<{ root: string; against?: string; verbose?: boolean; format: 'text' | 'json' }>();
  try {
    const result = diffContract({ root: options.root, against: options.against });
    if (options.format === 'json') {
      console.log(JSON.stringify(result, null, 2));
    } else {
      const shown = result.changes.filter((change) => change.isBreaking || options.verbose);
      shown.forEach((change) => console.log(formatChange(change)));
      const passing = result.changes.length - result.breakingCount;
      const frozenAt = result.frozen.manifest?.frozen_at ?? 'unknown date';
      console.log(
        `contract:diff: ${result.breakingCount === 0 ? 'no breaking change' : `${result.breakingCount} breaking change${result.breakingCount === 1 ? '' : 's'}`} ` +
          `against ${result.frozen.directory} (frozen ${frozenAt}); ${passing} non-breaking change${passing === 1 ? '' : 's'} ` +
          `(additions, deprecations)${options.verbose || passing === 0 ? '' : ' — --verbose lists them'}; ` +
          `${result.elapsedMs} ms`,
      );
    }
    return result.breakingCount === 0 ? 0 : 1;
  } catch (error) {
    if (error instanceof FrozenContractError || error instanceof OasdiffError) {
      console.error(`contract:diff: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = main();
