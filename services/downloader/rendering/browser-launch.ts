import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { headlessModeFor } from '../../common/chromium/chromium-executable';
import type { BrowserContainment } from './browser-containment';
import type { BrowserProfiles } from './browser-profiles';
import { chromiumArguments } from './chromium-arguments';
import { askDebugColorsOnce } from './debug-color-check';

export interface BrowserLaunchSettings {
  readonly executablePath: string;
  /** The egress proxy: every request of every page goes through it. */
  readonly pageProxyUrl: string;
  /** The BrowserTrafficRefuser: where Chromium's own (non-page) traffic goes, to be refused. */
  readonly browserProxyUrl: string;
  /** Appended to Chromium's own User-Agent: who crawls and how to reach them. */
  readonly crawlerUserAgent: string;
  /** Whether a render reads response bodies (API evidence): Chromium keeps them only then. */
  readonly isResponseBodyRead: boolean;
  /** Runs in every new document of every page before the page's own scripts (main world). */
  readonly newDocumentScript?: string;
  readonly extraArguments?: readonly string[];
  /** Renderer processes at most (chromium-arguments.ts). */
  readonly rendererProcessLimit: number;
  /** Where this browser's profile directory is created (and removed when it closes). */
  readonly profiles: BrowserProfiles;
  /** How Chromium is made to die with the downloader (browser-containment.ts). */
  readonly containment: BrowserContainment;
}

export interface LaunchedBrowser {
  readonly browser: Browser;
  readonly profileDirectory: string;
}

/** puppeteer's defaults we drop: Chromium's popup blocker stays on. */
const DROPPED_DEFAULT_ARGUMENTS = new Set(['--disable-popup-blocking']);

/**
 * Launches one Chromium for the render engine.
 *
 * - **Signals belong to the service.** puppeteer installs SIGTERM/SIGINT/SIGHUP handlers by default
 *   that close Chromium the moment the signal arrives — before the downloader's graceful drain,
 *   failing every render in flight with browser_crashed. They are off: the service host's shutdown
 *   stops the lease loop, lets renders finish, reports, and only then closes the browser.
 *   (puppeteer's handler for the process's normal exit stays: it kills the browser's process
 *   group if the downloader exits without closing it.)
 * - **Chromium dies with the downloader**, even on kill -9: it runs under the containment
 *   (a PID namespace with parent-death signals where the machine allows it).
 * - **The profile lives under the data directory** (BrowserProfiles), as does Chromium's
 *   XDG config and cache (crash reports would otherwise land in $HOME/.config/chromium); its
 *   TMPDIR is a short directory of the profile root's own, emptied at start.
 * - DevTools over a pipe: no debugging port that a page (or anything else) could reach.
 */
export async function launchBrowser(settings: BrowserLaunchSettings): Promise<LaunchedBrowser> {
  askDebugColorsOnce();
  const headless = headlessModeFor(settings.executablePath);
  const profileDirectory = await settings.profiles.create();
  try {
    const chromium = puppeteer
      .defaultArgs({
        headless,
        args: [
          ...chromiumArguments(settings.browserProxyUrl, settings.rendererProcessLimit),
          ...(settings.extraArguments ?? []),
          `--user-data-dir=${profileDirectory}`,
        ],
      })
      .filter((argument) => !DROPPED_DEFAULT_ARGUMENTS.has(argument));
    const command = settings.containment.command(settings.executablePath, chromium);
    const browser = await puppeteer.launch({
      executablePath: command.executablePath,
      // The whole command line is ours (puppeteer's defaults are in `chromium` above): the
      // containment's tools come first, Chromium and its flags after them.
      ignoreDefaultArgs: true,
      args: [...command.argumentList],
      headless,
      pipe: true,
      handleSIGTERM: false,
      handleSIGINT: false,
      handleSIGHUP: false,
      env: {
        ...process.env,
        XDG_CONFIG_HOME: join(profileDirectory, 'xdg-config'),
        XDG_CACHE_HOME: join(profileDirectory, 'xdg-cache'),
        TMPDIR: settings.profiles.temporaryDirectory,
      },
      defaultViewport: { width: 1280, height: 900 },
      protocolTimeout: 30_000,
      // The engine reads the network over its own CDP session (network-log-recorder.ts);
      // puppeteer's request tracking would receive and process every network event a second
      // time. Nothing here uses HTTPRequest/HTTPResponse objects (goto then answers null).
      networkEnabled: false,
      issuesEnabled: false,
    });
    return { browser, profileDirectory };
  } catch (error) {
    await settings.profiles.remove(profileDirectory);
    throw error;
  }
}
