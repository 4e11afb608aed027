/** CONVENTION.md time format: `2026-08-15T07:47:52Z` — UTC, seconds, always Z. */
export function formatContractTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** An HTTP-date header (Last-Modified) in contract format; null when absent or unparseable. */
export function httpDateToContractTime(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const milliseconds = Date.parse(value);
  return Number.isNaN(milliseconds) ? null : formatContractTime(new Date(milliseconds));
}

/** A contract time as an HTTP-date (for If-Modified-Since); undefined when unparseable. */
export function contractTimeToHttpDate(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const milliseconds = Date.parse(value);
  return Number.isNaN(milliseconds) ? undefined : new Date(milliseconds).toUTCString();
}
