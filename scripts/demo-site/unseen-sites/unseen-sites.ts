import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  existsSync,
  statSync,
} from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { h } from 'preact';
import { renderToString as renderPreact } from 'preact-render-to-string';
import { createSSRApp } from 'vue';
import { renderToString as renderVue } from 'vue/server-renderer';

/**
 * Sites the sampler was never tuned on: real framework output served on loopback
 * (`127.0.2.<n>`), everything from pinned npm packages, nothing from the internet. Their content
 * is real text the corpus author did not write: the READMEs and package.json descriptions of
 * packages in node_modules. The calibration reports them apart from the labelled set.
 *
 *  - docsify-docs: Docsify, a purely client-side docs renderer (its shipped lib/docsify.min.js);
 *  - vue-spa: Vue 3's browser build with an in-DOM template, data from a JSON endpoint;
 *  - preact-htm-spa: Preact + htm as ES modules via an import map, no build step, history routes;
 *  - vue-ssr: vue/server-renderer per request, state for hydration, hydrated by Vue in the page;
 *  - preact-ssr: preact-render-to-string per request, hydrated by Preact in the page;
 *  - eleventy-blog: Eleventy (11ty) generates a blog from Markdown at start; served as files.
 */

export interface UnseenSite {
  readonly name: string;
  readonly host: string;
  readonly baseUrl: string;
  readonly seenUrlList: readonly string[];
  /** What a human says it is (not a target; reported next to the sampler's verdict). */
  readonly expectedByHand: string;
  readonly framework: string;
}

export interface UnseenSites {
  readonly sites: readonly UnseenSite[];
  stop(): Promise<void>;
}

const execFileAsync = promisify(execFile);

/** The installed package's folder (some packages export no `./package.json`). */
function packageDirectory(name: string): string {
  for (const base of require.resolve.paths(name) ?? []) {
    const candidate = join(base, name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  throw new Error(`package ${name} is not installed (npm ci)`);
}

const DOC_PACKAGES = ['pino', 'yaml', 'ajv', 'robots-parser', 'htmlparser2', 'prom-client'];

interface PackageDoc {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly readme: string;
}

function packageDocs(): PackageDoc[] {
  return DOC_PACKAGES.map((name) => {
    const directory = packageDirectory(name);
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
      description?: string;
      version: string;
    };
    return {
      name,
      description: manifest.description ?? name,
      version: manifest.version,
      readme: readFileSync(join(directory, 'README.md'), 'utf8'),
    };
  });
}

/** The README's prose paragraphs (no code, badges, tables or HTML), for the app sites' data. */
function proseOf(readme: string, limit: number): string[] {
  return readme
    .replace(/```[\s\S]*?```/g, '')
    .split(/\n\s*\n/)
    .map((block) => block.replace(/\s+/g, ' ').trim())
    .filter(
      (block) =>
        /^[A-Za-z]/.test(block) &&
        block.length > 60 &&
        !block.includes('|') &&
        !block.startsWith('<'),
    )
    .map((block) => block.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`]/g, ''))
    .slice(0, limit);
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
};

function send(
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
): void {
  response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-cache' });
  response.end(body);
}

/** A file under `root` (no escaping it), or undefined. */
function fileUnder(root: string, path: string): Buffer | undefined {
  const target = normalize(join(root, decodeURIComponent(path)));
  if (!target.startsWith(root)) return undefined;
  const candidate =
    existsSync(target) && statSync(target).isDirectory() ? join(target, 'index.html') : target;
  return existsSync(candidate) && statSync(candidate).isFile()
    ? readFileSync(candidate)
    : undefined;
}

type Handler = (path: string, response: ServerResponse) => void | Promise<void>;

function htmlPage(lang: string, title: string, head: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="${lang}">\n<head><meta charset="utf-8"><title>${title}</title>${head}</head>\n<body>${body}</body>\n</html>`;
}

// ---- the sites ----

function docsifySite(docs: PackageDoc[]): Handler {
  const libDirectory = join(packageDirectory('docsify'), 'lib');
  const index = htmlPage(
    'en',
    'Package notes',
    '<link rel="stylesheet" href="/lib/themes/vue.css">',
    `<div id="app"></div><script>window.$docsify = { name: 'Package notes', loadSidebar: true, subMaxLevel: 2 };</script><script src="/lib/docsify.min.js"></script>`,
  );
  const sidebar = docs.map((doc) => `- [${doc.name}](${doc.name}.md)`).join('\n');
  return (path, response) => {
    if (path === '/' || path === '/index.html') return send(response, 200, MIME['.html'], index);
    if (path === '/README.md') return send(response, 200, MIME['.md'], docs[0].readme);
    if (path === '/_sidebar.md') return send(response, 200, MIME['.md'], sidebar);
    const doc = docs.find((candidate) => path === `/${candidate.name}.md`);
    if (doc !== undefined) return send(response, 200, MIME['.md'], doc.readme);
    const file = path.startsWith('/lib/')
      ? fileUnder(libDirectory, path.slice('/lib/'.length))
      : undefined;
    return file === undefined
      ? send(response, 404, 'text/plain', 'not found')
      : send(response, 200, MIME[extname(path)] ?? 'application/octet-stream', file);
  };
}

function vueSpaSite(docs: PackageDoc[]): Handler {
  const vueBuild = readFileSync(join(packageDirectory('vue'), 'dist', 'vue.global.prod.js'));
  const template = `<div id="app"><h1>{{ title }}</h1><p v-if="!packages.length">Loading…</p><section v-for="pkg in packages" :key="pkg.name" class="package"><h2>{{ pkg.name }} <small>{{ pkg.version }}</small></h2><p>{{ pkg.description }}</p><p v-for="(text, index) in pkg.prose" :key="index">{{ text }}</p></section></div>`;
  const script = `const { createApp } = Vue;
createApp({
  data() { return { title: 'Dependency catalogue', packages: [] }; },
  mounted() { fetch('/api/packages').then((r) => r.json()).then((list) => { this.packages = list; }); },
}).mount('#app');`;
  const index = htmlPage(
    'en',
    'Dependency catalogue',
    '',
    `${template}<script src="/vendor/vue.global.prod.js"></script><script src="/app.js"></script>`,
  );
  const data = docs.map((doc) => ({
    name: doc.name,
    version: doc.version,
    description: doc.description,
    prose: proseOf(doc.readme, 2),
  }));
  return (path, response) => {
    if (path === '/') return send(response, 200, MIME['.html'], index);
    if (path === '/vendor/vue.global.prod.js') return send(response, 200, MIME['.js'], vueBuild);
    if (path === '/app.js') return send(response, 200, MIME['.js'], script);
    if (path === '/api/packages') return send(response, 200, MIME['.json'], JSON.stringify(data));
    return send(response, 404, 'text/plain', 'not found');
  };
}

function preactHtmSite(docs: PackageDoc[]): Handler {
  const vendor: Record<string, string> = {
    '/vendor/preact.module.js': join(packageDirectory('preact'), 'dist', 'preact.module.js'),
    '/vendor/hooks.module.js': join(packageDirectory('preact'), 'hooks', 'dist', 'hooks.module.js'),
    '/vendor/htm.module.js': join(packageDirectory('htm'), 'dist', 'htm.module.js'),
    '/vendor/htm-preact.module.js': join(packageDirectory('htm'), 'preact', 'index.module.js'),
  };
  const importMap = JSON.stringify({
    imports: {
      preact: '/vendor/preact.module.js',
      'preact/hooks': '/vendor/hooks.module.js',
      htm: '/vendor/htm.module.js',
      'htm/preact': '/vendor/htm-preact.module.js',
    },
  });
  const app = `import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';
function Nav({ list }) {
  return html\`<nav><a href="/">All packages</a> \${list.map((p) => html\`<a href=\${'/packages/' + p.name}> \${p.name}</a>\`)}</nav>\`;
}
function App() {
  const [list, setList] = useState([]);
  useEffect(() => { fetch('/api/packages').then((r) => r.json()).then(setList); }, []);
  const name = location.pathname.startsWith('/packages/') ? location.pathname.slice(10) : null;
  const shown = name ? list.filter((p) => p.name === name) : list;
  return html\`<div class="shell"><\${Nav} list=\${list} /><main>\${shown.map((p) => html\`<article><h2>\${p.name}</h2><p>\${p.description}</p>\${p.prose.map((t) => html\`<p>\${t}</p>\`)}</article>\`)}</main></div>\`;
}
render(html\`<\${App} />\`, document.getElementById('root'));`;
  const index = htmlPage(
    'en',
    'Package browser',
    `<script type="importmap">${importMap}</script>`,
    `<div id="root"></div><script type="module" src="/app.mjs"></script>`,
  );
  const data = docs.map((doc) => ({
    name: doc.name,
    description: doc.description,
    prose: proseOf(doc.readme, 3),
  }));
  return (path, response) => {
    if (path === '/' || path.startsWith('/packages/'))
      return send(response, 200, MIME['.html'], index);
    if (path === '/app.mjs') return send(response, 200, MIME['.mjs'], app);
    if (path === '/api/packages') return send(response, 200, MIME['.json'], JSON.stringify(data));
    const file = vendor[path];
    return file === undefined
      ? send(response, 404, 'text/plain', 'not found')
      : send(response, 200, MIME['.js'], readFileSync(file));
  };
}

const VUE_SSR_TEMPLATE = `<div class="catalogue"><header><h1>{{ title }}</h1></header><main><section v-for="pkg in packages" :key="pkg.name" class="package"><h2><a :href="'/packages/' + pkg.name">{{ pkg.name }}</a></h2><p>{{ pkg.description }}</p><p v-for="(text, index) in pkg.prose" :key="index">{{ text }}</p></section></main></div>`;

function vueSsrSite(docs: PackageDoc[]): Handler {
  const vueBuild = readFileSync(join(packageDirectory('vue'), 'dist', 'vue.global.prod.js'));
  const all = docs.map((doc) => ({
    name: doc.name,
    description: doc.description,
    prose: proseOf(doc.readme, 3),
  }));
  return async (path, response) => {
    if (path === '/vendor/vue.global.prod.js') return send(response, 200, MIME['.js'], vueBuild);
    const name = path.startsWith('/packages/') ? path.slice('/packages/'.length) : null;
    if (path !== '/' && (name === null || !all.some((pkg) => pkg.name === name)))
      return send(response, 404, 'text/plain', 'not found');
    const state = {
      title: name ?? 'Package catalogue',
      packages: name === null ? all : all.filter((pkg) => pkg.name === name),
    };
    const markup = await renderVue(
      createSSRApp({ data: () => ({ ...state }), template: VUE_SSR_TEMPLATE }),
    );
    const hydrate = `window.__INITIAL_STATE__ = ${JSON.stringify(state).replace(/</g, '\\u003c')};
Vue.createSSRApp({ data: () => window.__INITIAL_STATE__, template: ${JSON.stringify(VUE_SSR_TEMPLATE)} }).mount('#app');`;
    return send(
      response,
      200,
      MIME['.html'],
      htmlPage(
        'en',
        state.title,
        '',
        `<div id="app">${markup}</div><script src="/vendor/vue.global.prod.js"></script><script>${hydrate}</script>`,
      ),
    );
  };
}

function preactSsrSite(docs: PackageDoc[]): Handler {
  const all = docs.map((doc) => ({
    name: doc.name,
    description: doc.description,
    prose: proseOf(doc.readme, 3),
  }));
  type Item = (typeof all)[number];
  const Catalogue = ({ items }: { items: Item[] }) =>
    h('div', { class: 'catalogue' }, [
      h('h1', null, 'Library notes'),
      ...items.map((item) =>
        h('article', { key: item.name }, [
          h('h2', null, h('a', { href: `/packages/${item.name}` }, item.name)),
          h('p', null, item.description),
          ...item.prose.map((text) => h('p', null, text)),
        ]),
      ),
    ]);
  const client = `import { hydrate } from 'preact';
import { html } from 'htm/preact';
const items = JSON.parse(document.getElementById('page-data').textContent);
function Catalogue({ items }) {
  return html\`<div class="catalogue"><h1>Library notes</h1>\${items.map((item) => html\`<article key=\${item.name}><h2><a href=\${'/packages/' + item.name}>\${item.name}</a></h2><p>\${item.description}</p>\${item.prose.map((text) => html\`<p>\${text}</p>\`)}</article>\`)}</div>\`;
}
hydrate(html\`<\${Catalogue} items=\${items} />\`, document.getElementById('root'));`;
  const vendor = preactHtmSite(docs);
  const importMap = JSON.stringify({
    imports: {
      preact: '/vendor/preact.module.js',
      htm: '/vendor/htm.module.js',
      'htm/preact': '/vendor/htm-preact.module.js',
    },
  });
  return (path, response) => {
    if (path.startsWith('/vendor/')) return vendor(path, response);
    if (path === '/client.mjs') return send(response, 200, MIME['.mjs'], client);
    const name = path.startsWith('/packages/') ? path.slice('/packages/'.length) : null;
    const items = name === null ? all : all.filter((item) => item.name === name);
    if (path !== '/' && items.length === 0) return send(response, 404, 'text/plain', 'not found');
    const markup = renderPreact(h(Catalogue, { items }));
    return send(
      response,
      200,
      MIME['.html'],
      htmlPage(
        'en',
        'Library notes',
        `<script type="importmap">${importMap}</script>`,
        `<div id="root">${markup}</div><script type="application/json" id="page-data">${JSON.stringify(items).replace(/</g, '\\u003c')}</script><script type="module" src="/client.mjs"></script>`,
      ),
    );
  };
}

/** Generates the blog with Eleventy's own CLI (Markdown + a Liquid layout) into `outputDirectory`. */
async function buildEleventyBlog(docs: PackageDoc[], workDirectory: string): Promise<string> {
  const input = join(workDirectory, 'src');
  const output = join(workDirectory, '_site');
  mkdirSync(join(input, '_includes'), { recursive: true });
  mkdirSync(join(input, 'posts'), { recursive: true });
  writeFileSync(
    join(input, '_includes', 'base.liquid'),
    `<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>{{ title }}</title></head>\n<body><header><a href="/">Dependency diary</a></header><main><article>{{ content }}</article></main><footer>Built with Eleventy</footer></body>\n</html>\n`,
  );
  writeFileSync(
    join(input, 'index.md'),
    `---\nlayout: base.liquid\ntitle: Dependency diary\n---\n# Dependency diary\n\n${docs.map((doc) => `- [${doc.name}](/posts/${doc.name}/): ${doc.description}`).join('\n')}\n`,
  );
  for (const doc of docs) {
    writeFileSync(
      join(input, 'posts', `${doc.name}.md`),
      `---\nlayout: base.liquid\ntitle: ${JSON.stringify(doc.name)}\n---\n${doc.readme}\n`,
    );
  }
  const command = join(packageDirectory('@11ty/eleventy'), 'cmd.cjs');
  await execFileAsync(
    process.execPath,
    [command, `--input=${input}`, `--output=${output}`, '--quiet'],
    { cwd: workDirectory, timeout: 60_000 },
  );
  return output;
}

function staticSite(root: string): Handler {
  return (path, response) => {
    const file = fileUnder(root, path);
    return file === undefined
      ? send(response, 404, 'text/html', '<h1>Not found</h1>')
      : send(response, 200, MIME[extname(path) || '.html'] ?? MIME['.html'], file);
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startUnseenSites(): Promise<UnseenSites> {
  const docs = packageDocs();
  const workDirectory = mkdtempSync(join(tmpdir(), 'unseen-sites-'));
  const eleventyOutput = await buildEleventyBlog(docs, workDirectory);
  const definitions: Array<
    Omit<UnseenSite, 'host' | 'baseUrl' | 'seenUrlList'> & {
      octet: number;
      handler: Handler;
      seenPaths: string[];
    }
  > = [
    {
      name: 'docsify-docs',
      framework: 'Docsify 4 (client-side Markdown renderer)',
      expectedByHand: 'csr',
      octet: 10,
      handler: docsifySite(docs),
      seenPaths: [],
    },
    {
      name: 'vue-spa',
      framework: 'Vue 3 browser build, in-DOM template',
      expectedByHand: 'csr',
      octet: 11,
      handler: vueSpaSite(docs),
      seenPaths: [],
    },
    {
      name: 'preact-htm-spa',
      framework: 'Preact + htm ES modules, history routes',
      expectedByHand: 'csr',
      octet: 12,
      handler: preactHtmSite(docs),
      seenPaths: ['/packages/yaml', '/packages/pino'],
    },
    {
      name: 'vue-ssr',
      framework: 'vue/server-renderer + client hydration',
      expectedByHand: 'ssr',
      octet: 13,
      handler: vueSsrSite(docs),
      seenPaths: ['/packages/ajv'],
    },
    {
      name: 'preact-ssr',
      framework: 'preact-render-to-string + hydrate',
      expectedByHand: 'ssr',
      octet: 14,
      handler: preactSsrSite(docs),
      seenPaths: ['/packages/htmlparser2'],
    },
    {
      name: 'eleventy-blog',
      framework: 'Eleventy 3 static output',
      expectedByHand: 'ssr',
      octet: 15,
      handler: staticSite(eleventyOutput),
      seenPaths: [],
    },
  ];
  const servers: Server[] = [];
  let port = 0;
  try {
    const sites: UnseenSite[] = [];
    for (const definition of definitions) {
      const host = `127.0.2.${definition.octet}`;
      const server = createServer((request, response) => {
        const path = new URL(request.url ?? '/', 'http://unseen').pathname;
        if (path === '/robots.txt') return send(response, 404, 'text/plain', 'not found');
        Promise.resolve(definition.handler(path, response)).catch((error: unknown) => {
          if (!response.headersSent) send(response, 500, 'text/plain', String(error));
        });
      });
      servers.push(server);
      port = await listen(server, port, host);
      const baseUrl = `http://${host}:${port}`;
      sites.push({
        name: definition.name,
        framework: definition.framework,
        expectedByHand: definition.expectedByHand,
        host,
        baseUrl,
        seenUrlList: [`${baseUrl}/`, ...definition.seenPaths.map((path) => `${baseUrl}${path}`)],
      });
    }
    return {
      sites,
      stop: async () => {
        for (const server of servers) server.closeAllConnections();
        await Promise.all(
          servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
        );
        rmSync(workDirectory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const server of servers) server.close();
    rmSync(workDirectory, { recursive: true, force: true });
    throw error;
  }
}
