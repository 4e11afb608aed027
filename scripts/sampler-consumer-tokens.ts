import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { runConsumerTokenCommand } from '../services/sampler/cli/consumer-token-commands';

/**
 * `npm run sampler:consumer-tokens -- issue|list|revoke [consumer_id]` against a running sampler.
 * The token comes from --token, SAMPLER_TOKEN, or the local run's token file (make run).
 */
async function main(): Promise<void> {
  const environment = process.env;
  const program = new Command('sampler:consumer-tokens')
    .description("issue, list and revoke external consumers' tokens on a running sampler")
    .argument('<action>', 'issue, list or revoke')
    .argument('[consumer_id]', 'lowercase letters, digits and -, 1–64 (issue and revoke)')
    .option(
      '--sampler-url <url>',
      'env SAMPLER_URL',
      environment.SAMPLER_URL ?? 'http://127.0.0.1:7103',
    )
    .option(
      '--token <token>',
      "the sampler's service token (env SAMPLER_TOKEN)",
      environment.SAMPLER_TOKEN,
    )
    .option(
      '--data-dir <path>',
      'where make run keeps service-tokens.json (env DATA_DIR)',
      environment.DATA_DIR ?? './.data',
    )
    .parse(process.argv);
  const [action, consumerId] = program.args;
  const options = program.opts<{ samplerUrl: string; token?: string; dataDir: string }>();
  if (!isAction(action)) {
    return program.error(`unknown action "${action}": use issue, list or revoke`);
  }
  const samplerToken = options.token ?? tokenOfLocalRun(options.dataDir);
  if (samplerToken === undefined) {
    return program.error('no sampler token: pass --token or set SAMPLER_TOKEN');
  }
  const outcome = await runConsumerTokenCommand(
    { action, consumerId },
    { samplerUrl: options.samplerUrl, samplerToken },
  );
  for (const line of outcome.lines) console.log(line);
  process.exitCode = outcome.exitCode;
}

function isAction(text: string): text is 'issue' | 'list' | 'revoke' {
  return text === 'issue' || text === 'list' || text === 'revoke';
}

function tokenOfLocalRun(dataDirectory: string): string | undefined {
  const path = join(dataDirectory, 'service-tokens.json');
  if (!existsSync(path)) return undefined;
  return (JSON.parse(readFileSync(path, 'utf8')) as { sampler?: string }).sampler;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
