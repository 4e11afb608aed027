import type { LaunchOptions } from 'puppeteer-core';
import { headlessModeFor } from '../../services/common/chromium/chromium-executable';
import { chromiumArguments } from '../../services/downloader/rendering/chromium-arguments';
import { CHROMIUM_PATH } from './bench-settings';

/** The engine's routing flags: they point Chromium at its egress proxy, which the peers lack. */
const PROXY_ROUTING_FLAG = /^--(proxy-server|proxy-bypass-list|host-resolver-rules)=/;

/**
 * Chromium flags for Crawlee and the bare loop: exactly the engine's flags (same background
 * services off, same image blocking, same process model — chromium-arguments.ts), except routing.
 * The peers go direct (no proxy: if anything, that favours them), and Chromium may resolve no
 * name at all: every host maps to "not found" except the bench's own loopback addresses, so it
 * sends no DNS query and cannot reach anything but them (it tries Google hosts on its own).
 */
export function peerChromiumArguments(hosts: readonly string[]): string[] {
  const unused = 'http://127.0.0.1:9'; // the engine's proxy URL slot; its flags are dropped below
  return [
    ...chromiumArguments(unused).filter((argument) => !PROXY_ROUTING_FLAG.test(argument)),
    // Also ignore any proxy from the environment (Chromium on Linux honours *_proxy variables).
    '--no-proxy-server',
    `--host-resolver-rules=MAP * ~NOTFOUND, ${hosts.map((host) => `EXCLUDE ${host}`).join(', ')}`,
  ];
}

/** puppeteer launch options as the engine uses them (browser-generation.ts), peer flags instead. */
export function peerLaunchOptions(hosts: readonly string[]): LaunchOptions {
  return {
    executablePath: CHROMIUM_PATH,
    headless: headlessModeFor(CHROMIUM_PATH),
    pipe: true,
    ignoreDefaultArgs: ['--disable-popup-blocking'],
    args: peerChromiumArguments(hosts),
    defaultViewport: { width: 1280, height: 900 },
    protocolTimeout: 30_000,
  };
}
