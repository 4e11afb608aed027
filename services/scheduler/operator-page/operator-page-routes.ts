import type { Express, Response } from 'express';
import { OPERATOR_PAGE_CSS, OPERATOR_PAGE_HTML } from './operator-page-html';
import { OPERATOR_PAGE_SCRIPT } from './operator-page-script';

/**
 * Strict headers: only this origin's script and style run, the page cannot be framed, and nothing
 * (not the URL, not the fragment's token) leaks through a Referer.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

function send(response: Response, contentType: string, body: string): void {
  response.set(SECURITY_HEADERS).type(contentType).send(body);
}

/**
 * The operator page, outside the contract router: GET /operator (the page), plus its script and
 * style. The page is public and holds no data; its data comes from the token-protected
 * GET /v1/operator/frontier-summary.
 */
export function addOperatorPageRoutes(app: Express): void {
  app.get('/operator', (_request, response) => send(response, 'html', OPERATOR_PAGE_HTML));
  app.get('/operator/operator-page.js', (_request, response) =>
    send(response, 'application/javascript', OPERATOR_PAGE_SCRIPT),
  );
  app.get('/operator/operator-page.css', (_request, response) =>
    send(response, 'css', OPERATOR_PAGE_CSS),
  );
}
