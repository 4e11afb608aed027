import { basename } from 'node:path';

/*
 * HEADLESS_SHELL_NOTE — why the render browser is chrome-headless-shell by default. Chromium
 * ships two headless browsers: the full browser run with --headless (a browser window, tab strip,
 * omnibox, profile services and extensions, all there and unseen) and the headless shell, the
 * content layer with a headless embedder and nothing else (Debian package
 * chromium-headless-shell; puppeteer's `headless: 'shell'`). A crawler needs a DOM, its scripts and
 * its network, never a browser user interface, and that interface costs CPU in the browser
 * process on every navigation. `npm run bench:render -- --contenders service --rounds 1 --pages 400
 * --many-domain-hosts 0 --api-pages 0`, 2026-12-02, 2 cores, alternating full / shell / full /
 * shell: 9.65 / 11.31 / 10.85 / 11.96 pages/s at 179 / 151 / 160 / 147 ms CPU per page (a slow,
 * drifting machine: the first shell run that morning, 14.73 pages/s at 118 ms). The peers of
 * bench:render run the same binary (CHROMIUM_PATH), so its ratios compare like with like.
 *
 * The full browser stays available (`--chromium-path /usr/bin/chromium`): chromium-arguments.ts
 * gives both builds the flags either needs — the full browser's (its omnibox WebUI, its
 * back/forward cache, its WebRTC switch) and the shell's (its WebRTC switch, popups refused).
 */

/** Debian's chromium-headless-shell binary, run directly (its /usr/bin wrapper does not exec). */
export const DEFAULT_CHROMIUM_PATH = '/usr/lib/chromium/chromium-headless-shell';

/** Debian's full browser (its wrapper script adds Debian's default flags from /etc/chromium.d). */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';

/** The browser binary: CHROMIUM_PATH when set, the headless shell otherwise. */
export function configuredChromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
}

/**
 * puppeteer's headless mode for a binary: 'shell' for a headless shell (Debian's
 * chromium-headless-shell, Chrome for Testing's chrome-headless-shell), which takes the plain
 * `--headless` switch; `true` (`--headless=new`) for a full browser.
 */
export function headlessModeFor(executablePath: string): true | 'shell' {
  return /headless[-_]shell/.test(basename(executablePath)) ? 'shell' : true;
}
