/** Reading counters from a service's `/metrics` (Prometheus text exposition). */

/** One sample of a counter in a Prometheus text exposition: its labels and value. */
export interface CounterSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Every sample of counter `name` in `metricsText`. */
export function samplesOf(metricsText: string, name: string): CounterSample[] {
  const sample = new RegExp(`^${name}\\{([^}]*)\\}\\s+(\\d+(?:\\.\\d+)?)\\s*$`);
  return metricsText.split('\n').flatMap((line) => {
    const match = sample.exec(line.trim());
    if (!match) return [];
    const labels = Object.fromEntries(
      [...match[1].matchAll(/(\w+)="([^"]*)"/g)].map(([, label, value]) => [label, value]),
    );
    return [{ labels, value: Number(match[2]) }];
  });
}
