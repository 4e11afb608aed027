import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { scaffoldHandlers } from './handler-scaffolder';

/** `npm run scaffold`: creates missing handler files (never overwrites) and names unwired ones. */
async function main(): Promise<void> {
  const options = new Command('scaffold')
    .option('--root <dir>', 'repository root to scaffold in', join(__dirname, '..', '..'))
    .parse(process.argv)
    .opts<{ root: string }>();
  const { createdPaths, unwiredNotes } = await scaffoldHandlers(resolve(options.root));
  for (const path of createdPaths) console.log(`scaffold: created ${path}`);
  for (const note of unwiredNotes) console.log(`scaffold: not wired yet — ${note}`);
  if (createdPaths.length === 0 && unwiredNotes.length === 0) {
    console.log('scaffold: every operation already has a handler file; nothing to do');
  }
}

main().catch((error: unknown) => {
  console.error(`scaffold failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
