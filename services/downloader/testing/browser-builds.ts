import {
  configuredChromiumPath,
  FULL_CHROMIUM_PATH,
} from '../../common/chromium/chromium-executable';

export interface BrowserBuild {
  readonly name: string;
  readonly executablePath: string;
}

/**
 * The browser the downloader renders with (the headless shell unless CHROMIUM_PATH says
 * otherwise) and the full browser an operator may choose instead: tests of a flag that one of them
 * reads and the other ignores run on both (chromium-arguments.ts).
 */
export function browserBuilds(): BrowserBuild[] {
  const configured = configuredChromiumPath();
  const builds = [{ name: `configured (${configured})`, executablePath: configured }];
  if (configured !== FULL_CHROMIUM_PATH) {
    builds.push({
      name: `full browser (${FULL_CHROMIUM_PATH})`,
      executablePath: FULL_CHROMIUM_PATH,
    });
  }
  return builds;
}
