import { Command } from 'commander';
import { DEFAULT_DEMO_HOSTS, startDemoSite } from './demo-site';

// CLI: `npx tsx scripts/demo-site/main.ts [--hosts 127.0.0.2,127.0.0.3] [--port 8080]`.
// Prints the URLs and serves until interrupted.
async function main(): Promise<void> {
  const options = new Command()
    .description('Serve the bundled demo site on loopback addresses')
    .option('--hosts <list>', 'comma-separated loopback addresses', DEFAULT_DEMO_HOSTS.join(','))
    .option('--port <number>', 'one port for every host (0 = a free port per host)', '0')
    .option('--crawl-delay-seconds <number>', 'Crawl-delay announced in robots.txt', '1')
    .option(
      '--client-rendered-hosts <list>',
      'hosts whose pages build their article in the browser (an app shell)',
      '',
    )
    .parse()
    .opts<{
      hosts: string;
      port: string;
      crawlDelaySeconds: string;
      clientRenderedHosts: string;
    }>();
  const site = await startDemoSite({
    hosts: options.hosts.split(',').map((host) => host.trim()),
    port: Number(options.port),
    crawlDelaySeconds: Number(options.crawlDelaySeconds),
    clientRenderedHosts: options.clientRenderedHosts
      .split(',')
      .map((host) => host.trim())
      .filter((host) => host !== ''),
  });
  const lines = [
    'Demo site running:',
    ...site.baseUrls.map((baseUrl) => `  ${baseUrl}/`),
    `Access log (not itself logged): ${site.controlUrl}`,
    `Reachable by following links from ${site.baseUrls[0]}/: ${site.reachableUrls.length} pages`,
    'Press Ctrl+C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = () => {
    void site.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
