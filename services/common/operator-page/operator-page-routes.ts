import type { Express } from 'express';

/**
 * Only this origin's script and style run, nothing may frame the page, and no Referer leaves it
 * (the token lives in the URL fragment and sessionStorage; neither must leak).
 */
export const OPERATOR_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

export interface OperatorPageFiles {
  html: string;
  script: string;
  css: string;
}

/**
 * Serves an operator page outside the contract router: `/operator` and its two assets, public,
 * static and without data — the data comes from the token-protected operator endpoints.
 */
export function addOperatorPage(app: Express, files: OperatorPageFiles): void {
  const routes: Array<[string, string, string]> = [
    ['/operator', 'text/html; charset=utf-8', files.html],
    ['/operator/assets/page.js', 'application/javascript; charset=utf-8', files.script],
    ['/operator/assets/page.css', 'text/css; charset=utf-8', files.css],
  ];
  for (const [path, contentType, body] of routes) {
    app.get(path, (_request, response) => {
      response.set(OPERATOR_PAGE_HEADERS).type(contentType).send(body);
    });
  }
}
