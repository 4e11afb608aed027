/**
 * puppeteer-core 24 — the last line that runs on Node 20 — passes every CDP message it sends or
 * receives to the `debug` package, logging on or not, and builds a new `debug` logger for each
 * one; building a logger asks `tty.isatty(stderr)`, a system call. In a render run that was ~5 %
 * of the downloader's busy main thread (`npm run bench:render -- --contenders service --rounds 1
 * --pages 400 --many-domain-hosts 0 --api-pages 0 --downloader-cpu-profile <dir>`, 2026-12-02:
 * 0.84 s of isatty in the last 45 s, ~2 ms per page). puppeteer 25 checks first whether the
 * channel is on, but needs Node ≥ 22.12.
 *
 * The answer cannot change while the process runs (stderr stays the same file descriptor), so it
 * is asked once and remembered — in the `debug` module puppeteer itself loads.
 */
export function askDebugColorsOnce(): void {
  const debugModule = require(
    require.resolve('debug', { paths: [require.resolve('puppeteer-core')] }),
  ) as { useColors: () => boolean };
  const useColors = debugModule.useColors();
  debugModule.useColors = () => useColors;
}
