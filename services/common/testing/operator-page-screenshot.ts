import { join } from 'node:path';
import type { Page } from 'puppeteer-core';

/** Where README's screenshots of the operator pages live. */
const SCREENSHOT_DIRECTORY = join(__dirname, '..', '..', '..', 'docs', 'screenshots');

/**
 * Saves `page` as docs/screenshots/<name>.png when OPERATOR_SCREENSHOTS=1 (how README's pictures
 * are refreshed: `OPERATOR_SCREENSHOTS=1 npx jest services/*\/operator-page`); otherwise it only
 * renders the screenshot, so a page that cannot be drawn still fails the test. Always 1100 px wide
 * at scale 1, so the PNGs stay small and comparable.
 */
export async function takeOperatorScreenshot(page: Page, name: string): Promise<Uint8Array> {
  await page.setViewport({ width: 1100, height: 800, deviceScaleFactor: 1 });
  const isSaving = process.env.OPERATOR_SCREENSHOTS === '1';
  return page.screenshot({
    fullPage: true,
    type: 'png',
    ...(isSaving ? { path: join(SCREENSHOT_DIRECTORY, `${name}.png`) as `${string}.png` } : {}),
  });
}
