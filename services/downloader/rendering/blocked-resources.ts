import type { Protocol } from 'puppeteer-core';

/**
 * Fonts, media and images are never fetched. They are blocked through the DevTools protocol
 * (Network.setBlockedURLs), not request interception: interception pauses every request and an
 * aborted request is logged by Chromium as "Failed to load resource" (pitfalls.md).
 *
 * URL patterns (URLPattern syntax) match the path's file extension, any query string; they are
 * case-sensitive, hence both spellings. Images are in addition switched off in Blink
 * (`imagesEnabled=false`, see chromium-arguments.ts), which also covers extension-less image URLs;
 * the image patterns still catch favicons and image preloads. Extension-less font or media URLs
 * are the known gap.
 */
const BLOCKED_EXTENSIONS = [
  // images
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'avif',
  'bmp',
  'ico',
  'svg',
  'tif',
  'tiff',
  // fonts
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  // media
  'mp4',
  'webm',
  'ogg',
  'ogv',
  'mp3',
  'wav',
  'm4a',
  'm4v',
  'aac',
  'flac',
  'mov',
  'avi',
  'mkv',
  'm3u8',
  'mpd',
];

export const BLOCKED_URL_PATTERNS: Protocol.Network.BlockPattern[] = BLOCKED_EXTENSIONS.flatMap(
  (extension) =>
    [extension, extension.toUpperCase()].map((spelling) => ({
      urlPattern: `*://*:*/*.${spelling}`,
      block: true,
    })),
);
