import puppeteer, { type Browser } from 'puppeteer-core';
import { configuredChromiumPath, headlessModeFor } from '../chromium/chromium-executable';

/**
 * A headless Chromium for tests that look at a page served on loopback (operator pages). Besides
 * the flags Chromium needs as root, every host name is mapped to "not found" so Chromium's own
 * background requests (update checks, account services) never reach a resolver or leave the
 * machine — except the loopback addresses the test serves its pages on (by IP literal).
 */
export function launchTestBrowser(
  loopbackHosts: readonly string[] = ['127.0.0.1'],
): Promise<Browser> {
  const executablePath = configuredChromiumPath();
  const exclusions = loopbackHosts.map((host) => `EXCLUDE ${host}`).join(', ');
  return puppeteer.launch({
    executablePath,
    headless: headlessModeFor(executablePath),
    pipe: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
      '--no-proxy-server',
      `--host-resolver-rules=MAP * ~NOTFOUND, ${exclusions}`,
    ],
  });
}
