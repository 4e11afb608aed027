/**
 * `make run` shows a domain switching between rendering and its JSON API (contract v2) as it
 * happens: the scheduler logs each switch when the sampler's rule arrives; this turns that log
 * line into a line for the person watching.
 */
export function strategySwitchLineOf(
  logLine: string,
  linkRenderIntervalSeconds: number,
): string | undefined {
  if (!logLine.startsWith('{') || !logLine.includes('"render_strategy"')) return undefined;
  let entry: { msg?: unknown; domain?: unknown; render_strategy?: unknown };
  try {
    entry = JSON.parse(logLine) as typeof entry;
  } catch {
    return undefined;
  }
  if (typeof entry.domain !== 'string' || typeof entry.msg !== 'string') return undefined;
  if (!entry.msg.startsWith('domain now')) return undefined;
  if (entry.render_strategy === 'api') {
    return (
      `scheduler: ${entry.domain} switched render → api — the sampler verified its JSON endpoint; ` +
      `its pages are now fetched through it, and rendered again every ${linkRenderIntervalSeconds} s ` +
      'to keep their links'
    );
  }
  if (entry.render_strategy === 'render') {
    return `scheduler: ${entry.domain} switched api → render — its pages are rendered again`;
  }
  return undefined;
}
