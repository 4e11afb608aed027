import { resolve, join } from 'node:path';
import { Command } from 'commander';
import { generateContractCode } from './contract-code-generator';
import { writeGeneratedFiles } from './generated-files-writer';

/**
 * `npm run generate`: regenerates generated/ from openapi/ and templates/.
 * `--output-root <dir>` writes `<dir>/generated/…` instead (to inspect or compare a generation).
 */
async function main(): Promise<void> {
  const repositoryRoot = join(__dirname, '..', '..');
  const options = new Command('generate')
    .option(
      '--output-root <dir>',
      'write <dir>/generated instead of the repository',
      repositoryRoot,
    )
    .parse(process.argv)
    .opts<{ outputRoot: string }>();
  const started = Date.now();
  console.log('generate: bundling openapi/, rendering templates (one JVM), emitting types …');
  const { files, timings } = await generateContractCode(repositoryRoot);
  const { writtenPaths, removedPaths } = writeGeneratedFiles(resolve(options.outputRoot), files);
  for (const path of writtenPaths) console.log(`  wrote ${path}`);
  for (const path of removedPaths) console.log(`  removed stale ${path}`);
  console.log(
    `generate: ${files.size} files, ${writtenPaths.length} changed, ${removedPaths.length} removed ` +
      `in ${Date.now() - started} ms (bundle ${timings.bundleMs} ms, openapi-generator ` +
      `${timings.javaMs} ms, openapi-typescript ${timings.typesMs} ms, prettier ${timings.formatMs} ms)`,
  );
}

main().catch((error: unknown) => {
  console.error(`generate failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
