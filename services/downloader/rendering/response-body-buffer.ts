import type { Protocol } from 'puppeteer-core';
import { MAX_JSON_BODY_BYTES, MAX_JSON_BODY_COUNT } from './json-response-collector';

/**
 * How much of the responses' bodies Chromium keeps for `Network.getResponseBody`, per page: the
 * parameters of the page session's `Network.enable`.
 *
 * Chromium keeps the bodies of a page's responses for DevTools (to answer getResponseBody) from
 * the moment Network is enabled, within buffers whose default is sized for a person debugging one
 * page, not for a pooled page that renders thousands. Nothing here reads a body except the JSON
 * collector of API evidence (json-response-collector.ts): without it, nothing is kept; with it,
 * room for the bodies it may read (each up to MAX_JSON_BODY_BYTES, twice that for text kept as
 * two-byte characters), and Chromium drops the oldest beyond.
 *
 * Measured (`npm run bench:render -- --contenders engine --rounds 1 --pages 400
 * --many-domain-hosts 0 --api-pages 0`, the engine at 16 pages after 720 warm-up renders and no
 * browser replacement, 2026-12-03, 2 cores, two alternating pairs): default buffers 21.65 / 20.00
 * pages/s, 86 / 93 ms CPU per page, peak PSS 1483 / 1314 MB; none kept 23.08 / 22.13 pages/s,
 * 80 / 84 ms, 1282 / 1207 MB. A fresh browser (32 warm-up renders) differs far less: the cost grows
 * with the pages a browser has rendered.
 */
export function networkEnableParameters(
  isResponseBodyRead: boolean,
): Protocol.Network.EnableRequest {
  if (!isResponseBodyRead) return { maxTotalBufferSize: 0, maxResourceBufferSize: 0 };
  const maxResourceBufferSize = 2 * MAX_JSON_BODY_BYTES;
  return { maxResourceBufferSize, maxTotalBufferSize: MAX_JSON_BODY_COUNT * maxResourceBufferSize };
}
