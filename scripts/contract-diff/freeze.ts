import { join } from 'node:path';
import { Command } from 'commander';
import { formatChange } from './breaking-change';
import { diffContract } from './contract-diff';
import {
  FrozenContractError,
  isContractVersion,
  listFrozenContracts,
  writeFrozenContract,
} from './frozen-contracts';
import { OasdiffError } from './oasdiff-runner';

/**
 * `npm run contract:freeze -- <version> [--force]`: copies the current CONTRACT.md and
 * openapi/*.yaml to openapi/frozen/<version>/, the baseline of `npm run contract:diff`. Run it when
 * a contract version is signed off by the three parties; refreezing a version replaces its copy.
 * It refuses to freeze a contract that breaks the newest frozen one — that would launder a breaking
 * change into the baseline — unless `--force` (a change the three parties signed off as breaking).
 */
function main(): number {
  const program = new Command('contract:freeze')
    .description('Freeze the current contract as the baseline of contract:diff.')
    .argument('<version>', 'the signed-off version, v<major>[.<minor>[.<patch>]] (e.g. v1)')
    .option('--root <dir>', 'repository root', join(__dirname, '..', '..'))
    .option('--force', 'freeze even when the contract breaks the newest frozen one')
    .parse(process.argv);
  const [version] = program.args;
  const options = program.opts<{ root: string; force?: boolean }>();
  if (!isContractVersion(version)) {
    console.error(`contract:freeze: \`${version}\` is not a version like v1, v1.2 or v2.0.1`);
    return 2;
  }
  try {
    if (listFrozenContracts(options.root).length > 0) {
      const result = diffContract({ root: options.root });
      if (result.breakingCount > 0) {
        result.changes
          .filter((change) => change.isBreaking)
          .forEach((change) => console.log(formatChange(change)));
        if (!options.force) {
          console.error(
            `contract:freeze: the contract breaks ${result.frozen.directory} ` +
              `(${result.breakingCount} breaking changes above); nothing frozen. Only a breaking ` +
              'change the three parties signed off may be frozen, with --force.',
          );
          return 1;
        }
        console.log(`contract:freeze: --force: freezing ${result.breakingCount} breaking changes`);
      }
    }
    const frozen = writeFrozenContract(options.root, version);
    console.log(
      `contract:freeze: froze the contract as ${frozen.directory} ` +
        `(from ${frozen.manifest?.source_commit ?? 'an unknown commit'}); commit it — ` +
        '`npm run contract:diff` now compares with it',
    );
    return 0;
  } catch (error) {
    if (error instanceof FrozenContractError || error instanceof OasdiffError) {
      console.error(`contract:freeze: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = main();
