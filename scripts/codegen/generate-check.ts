import { join } from 'node:path';
import { generateContractCode } from './contract-code-generator';
import { diffGeneratedFiles } from './generated-files-writer';

/**
 * `npm run generate:check`: regenerates in memory and fails when the committed generated/
 * differs — a contract change without regenerated code, or a hand edit of generated code.
 */
async function main(): Promise<void> {
  const repositoryRoot = join(__dirname, '..', '..');
  const { files } = await generateContractCode(repositoryRoot);
  const problems = diffGeneratedFiles(repositoryRoot, files);
  if (problems.length > 0) {
    console.error(`generate:check: generated/ is out of date (${problems.length} files):`);
    for (const problem of problems) console.error(`  ${problem}`);
    console.error('Run `npm run generate` and commit the result.');
    process.exit(1);
  }
  console.log(`generate:check: generated/ matches a fresh generation (${files.size} files)`);
}

main().catch((error: unknown) => {
  console.error(`generate:check failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
