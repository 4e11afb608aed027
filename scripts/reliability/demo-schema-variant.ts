import { writeFileSync } from 'node:fs';

type Schema = Record<string, unknown>;
interface Document {
  components: { schemas: Record<string, Schema & { properties: Record<string, Schema> }> };
}

/** Paths of the demo site worth rendering: plain and script-built pages, robots.txt, a 403. */
const DEMO_PATHS = ['/', '/csr', '/about', '/articles/1', '/console-error', '/robots.txt'];

/**
 * A variant of the downloader's document whose render and probe URLs are the demo site's pages
 * (and whose wait selectors and intervals are ones those pages can meet), so that the fuzzer's
 * schema-valid requests really render: Chromium, the egress proxy, robots.txt, the rate limit,
 * storage and the stored-object link all run under the fuzzer, not just the refusals.
 */
export function writeDemoSchemaVariant(
  downloaderDocument: unknown,
  demoBaseUrls: readonly string[],
  path: string,
): void {
  const document = structuredClone(downloaderDocument) as Document;
  const urls = demoBaseUrls.flatMap((base) => DEMO_PATHS.map((demoPath) => `${base}${demoPath}`));
  for (const name of ['RenderRequest', 'ProbeRequest']) {
    const properties = document.components.schemas[name].properties;
    properties.url = { type: 'string', enum: urls };
    properties.min_interval_ms = { type: 'integer', minimum: 0, maximum: 200 };
    properties.timeout_ms = { type: 'integer', minimum: 5000, maximum: 15000 };
    if ('wait_selector' in properties) {
      properties.wait_selector = {
        type: 'string',
        nullable: true,
        enum: [null, '#content', 'main', 'body'],
      };
    }
  }
  writeFileSync(path, JSON.stringify(document));
}
