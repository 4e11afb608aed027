import { dirname } from 'node:path';
import express, { type Express } from 'express';

/**
 * Where swagger-ui-dist's files are, found without loading the package: its main module evaluates
 * the 1.4 MB browser bundle in the service's own process — ~0.26 s of every service's start (a
 * profiled scheduler start) for files it only ever serves.
 */
const SWAGGER_UI_DIRECTORY = dirname(require.resolve('swagger-ui-dist/package.json'));

/**
 * The service's API reference: the bundled OpenAPI document at /openapi.json and Swagger UI at
 * /docs, served from the local swagger-ui-dist package (the machine may have no internet).
 */
export function addApiReferenceRoutes(app: Express, document: unknown, title: string): void {
  app.get('/openapi.json', (_request, response) => {
    response.json(document);
  });
  app.get(['/docs', '/docs/'], (_request, response) => {
    response.type('html').send(renderReferencePage(title));
  });
  app.use('/docs/assets', express.static(SWAGGER_UI_DIRECTORY, { index: false, maxAge: '1h' }));
}

function renderReferencePage(title: string): string {
  const escapedTitle = title.replace(/[<>&"]/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapedTitle} — API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>
  // CONTRACT.md numbers its sections §一 … §十. Without a CJK font those numerals render as empty
  // boxes, so this page shows them as §1 … §10 (the sections are in that order); /openapi.json
  // itself is served unchanged.
  var NUMERALS = { '一': 1, '二': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9, '十': 10 };
  fetch('/openapi.json')
    .then(function (response) { return response.text(); })
    .then(function (text) {
      var readable = text.replace(/§([一二三四五六七八九十])/g, function (_mark, numeral) {
        return '§' + NUMERALS[numeral];
      });
      window.ui = SwaggerUIBundle({ spec: JSON.parse(readable), dom_id: '#reference', deepLinking: true });
    });
</script>
</body>
</html>`;
}
