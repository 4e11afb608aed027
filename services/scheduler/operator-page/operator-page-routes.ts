import type { Express } from 'express';
import { addOperatorPage } from '../../common/operator-page/operator-page-routes';
import { OPERATOR_PAGE_CSS, OPERATOR_PAGE_HTML } from './operator-page-html';
import { OPERATOR_PAGE_SCRIPT } from './operator-page-script';

/** GET /operator and its assets (public and static; the data needs the scheduler's token). */
export function addOperatorPageRoutes(app: Express): void {
  addOperatorPage(app, {
    html: OPERATOR_PAGE_HTML,
    script: OPERATOR_PAGE_SCRIPT,
    css: OPERATOR_PAGE_CSS,
  });
}
