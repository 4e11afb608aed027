import type { Browser, Page } from 'puppeteer-core';

/**
 * What the operator-page tests do in a real Chromium: open a page with the token in the fragment,
 * collect script errors, and read what a person would read (whitespace collapsed).
 */
export interface OpenedOperatorPage {
  page: Page;
  /** Uncaught exceptions and console errors of the page, in order. */
  pageErrors: string[];
}

/**
 * Opens `${serviceUrl}/operator#token=…` and waits until the first refresh has drawn the data
 * (the status line starts with "Updated"). Generous timeout: other Chromium tests may be running.
 */
export async function openOperatorPage(
  browser: Browser,
  serviceUrl: string,
  token: string,
): Promise<OpenedOperatorPage> {
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(`${serviceUrl}/operator#token=${token}`);
  await page.waitForFunction(
    () => document.getElementById('status')?.textContent?.startsWith('Updated'),
    { timeout: 30_000 },
  );
  return { page, pageErrors };
}

/** The text of the first element matching `selector`, whitespace collapsed. */
export function textOf(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim());
}

/** The cells' texts of every row matching `selector`. */
export function rowCells(page: Page, selector: string): Promise<string[][]> {
  return page.$$eval(selector, (rows) =>
    rows.map((row) =>
      [...row.querySelectorAll('td')].map((cell) =>
        (cell.textContent ?? '').replace(/\s+/g, ' ').trim(),
      ),
    ),
  );
}

/**
 * Opens the page with a wrong token and checks the page's answer: the token form, a status naming
 * the refusal, nothing kept in the tab; then the right token through the form shows the view and is
 * kept, and "Forget token" removes it again.
 */
export async function expectTokenRefusedThenForgotten(
  browser: Browser,
  serviceUrl: string,
  token: string,
): Promise<void> {
  const page = await browser.newPage();
  const keptCount = () => page.evaluate(() => sessionStorage.length);
  await page.goto(`${serviceUrl}/operator#token=not-the-token-at-all`);
  await page.waitForFunction(
    () => !(document.getElementById('token-form') as HTMLFormElement).hidden,
  );
  expect(await textOf(page, '#status')).toContain('The token was refused (invalid_token)');
  expect(await keptCount()).toBe(0);
  await page.type('#token-input', token);
  await page.click('#token-form button[type="submit"]');
  await page.waitForFunction(() => !(document.getElementById('view') as HTMLElement).hidden);
  expect(await keptCount()).toBe(1);
  await page.click('#forget-button');
  expect(await keptCount()).toBe(0);
  await page.close();
}
