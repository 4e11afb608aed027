import type { Express } from 'express';
import { OPERATOR_PAGE_CSS, OPERATOR_PAGE_HTML } from './operator-page-html';
import { OPERATOR_PAGE_SCRIPT } from './operator-page-script';

/** Path → [content type, body]: the page and its two assets, all static. */
const OPERATOR_FILES: ReadonlyMap<string, readonly [string, string]> = new Map([
  ['/operator', ['text/html; charset=utf-8', OPERATOR_PAGE_HTML]],
  ['/operator/assets/page.js', ['application/javascript; charset=utf-8', OPERATOR_PAGE_SCRIPT]],
  ['/operator/assets/page.css', ['text/css; charset=utf-8', OPERATOR_PAGE_CSS]],
] as const);

/**
 * Only this origin's script and style run, nothing may frame the page, and no Referer leaves it
 * (the token lives in the fragment and sessionStorage; neither must leak).
 */
const PAGE_HEADERS = {
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

/**
 * The operator page outside the contract router: public, static, and without data — its data
 * comes from the token-protected operator endpoints of the contract.
 */
export function addOperatorPageRoutes(app: Express): void {
  for (const [path, [contentType, body]] of OPERATOR_FILES) {
    app.get(path, (_request, response) => {
      response.set(PAGE_HEADERS).type(contentType).send(body);
    });
  }
}
